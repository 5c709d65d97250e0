package io.editlock.rest;

import io.editlock.catalog.InvalidInputException;

/** The paging parameters of a list ({@code after}, {@code limit}): anything out of range is a 400 that says the range. */
final class ListParams {

    private ListParams() {}

    /** @return the id to list after; 0 when absent */
    static long after(String raw) {
        if (raw == null || raw.isEmpty()) {
            return 0;
        }
        if (raw.length() > 16 || !AsciiDigits.only(raw)) {
            throw new InvalidInputException("after must be an id (a non-negative integer)");
        }
        return Long.parseLong(raw);
    }

    /** @return the page size; {@code max} when absent */
    static int limit(String raw, int max) {
        if (raw == null || raw.isEmpty()) {
            return max;
        }
        if (raw.length() > 9 || !AsciiDigits.only(raw) || Integer.parseInt(raw) < 1 || Integer.parseInt(raw) > max) {
            throw new InvalidInputException("limit must be between 1 and " + max);
        }
        return Integer.parseInt(raw);
    }
}
