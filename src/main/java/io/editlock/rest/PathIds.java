package io.editlock.rest;

import io.editlock.catalog.Entity;
import io.editlock.catalog.UnknownIdException;
import io.editlock.lock.Resource;
import java.util.Optional;

/** Ids in paths: positive integers below 2^53; anything else names nothing (404). */
final class PathIds {

    private PathIds() {}

    static Optional<Long> parse(String raw) {
        if (raw == null || raw.length() > 16 || !AsciiDigits.only(raw)) {
            return Optional.empty();
        }
        long id = Long.parseLong(raw);
        return Resource.isValidId(id) ? Optional.of(id) : Optional.empty();
    }

    static long require(Entity entity, String raw) {
        return parse(raw).orElseThrow(() -> UnknownIdException.of(entity, raw));
    }
}
