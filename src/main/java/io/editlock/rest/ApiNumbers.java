package io.editlock.rest;

import io.editlock.catalog.Entity;
import io.editlock.catalog.InvalidInputException;
import io.editlock.catalog.UnknownIdException;
import io.editlock.lock.Resource;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * How the REST API reads a number from text: path ids, the paging parameters of a list ({@code after},
 * {@code limit}) and the digits of {@code Lock-Token}.
 *
 * <p>{@link Character#isDigit} and {@link Long#parseLong} take any Unicode digit, so a full-width
 * {@code "５"} would name 5; only {@code 0-9} are digits of the API. An id is a positive integer below
 * 2^53, like every id the store hands out ({@link Resource#isValidId}); an id in a path that is not one
 * names nothing, so it is the 404 of an unknown id. A paging parameter out of range is a 400 that says
 * the range. Text longer than any number it may be (16 digits, leading zeros aside) is refused before
 * it is parsed, so that parsing never overflows.
 */
final class ApiNumbers {

    private ApiNumbers() {}

    /** @return whether the text is non-empty and all {@code 0-9} */
    static boolean digitsOnly(String text) {
        return !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /**
     * @return the id a path names; empty when the text is not an id. Leading zeros name the same id
     *     (docs/protocol.md §8), however many.
     */
    static Optional<Long> pathId(String raw) {
        return number(raw).filter(Resource::isValidId);
    }

    /** @return the number the digits say, leading zeros aside; empty when they are no id's digits or more */
    private static Optional<Long> number(String raw) {
        if (raw == null || !digitsOnly(raw)) {
            return Optional.empty();
        }
        int first = 0;
        while (first < raw.length() - 1 && raw.charAt(first) == '0') {
            first++;
        }
        String digits = raw.substring(first);
        return digits.length() > 16 ? Optional.empty() : Optional.of(Long.parseLong(digits));
    }

    /** @return the id a path names, else the 404 of an unknown {@code entity} */
    static long pathId(Entity entity, String raw) {
        return pathId(raw).orElseThrow(() -> UnknownIdException.of(entity, raw));
    }

    /** @return the id to list after; 0 when absent */
    static long after(String raw) {
        if (raw == null || raw.isEmpty()) {
            return 0;
        }
        // As a path's id: leading zeros aside, and below 2^53, the ids the store hands out; 0 lists from the start.
        return number(raw)
                .filter(after -> after == 0 || Resource.isValidId(after))
                .orElseThrow(
                        () -> new InvalidInputException("after must be 0 or an id (a positive integer below 2^53)"));
    }

    /** @return the page size, leading zeros aside; {@code max} when absent */
    static int limit(String raw, int max) {
        if (raw == null || raw.isEmpty()) {
            return max;
        }
        return number(raw)
                .filter(limit -> limit >= 1 && limit <= max)
                .map(Long::intValue)
                .orElseThrow(() -> new InvalidInputException("limit must be between 1 and " + max));
    }

    /**
     * @return the one value the raw query ({@code a=1&b=}) gives the parameter {@code name}, decoded; null when
     *     it does not name it, and "" for an empty value. A name given twice ({@code ?limit=1&limit=500}, and
     *     {@code ?limit=&limit=2} alike) is 400: which one the client meant is a guess. Names are matched as
     *     written ({@code LIMIT} is another parameter, which nothing reads).
     */
    static String once(String rawQuery, String name) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return null;
        }
        String found = null;
        for (String pair : rawQuery.split("&", -1)) {
            int equals = pair.indexOf('=');
            String key = decode(equals < 0 ? pair : pair.substring(0, equals));
            if (!key.equals(name)) {
                continue;
            }
            if (found != null) {
                throw new InvalidInputException(name + " must be given at most once");
            }
            found = equals < 0 ? "" : decode(pair.substring(equals + 1));
        }
        return found;
    }

    private static String decode(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("the query is not valid percent-encoding");
        }
    }
}
