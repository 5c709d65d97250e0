package io.editlock.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Guard;
import io.editlock.lock.LockTokenMismatchException;
import io.editlock.lock.LockedException;
import io.editlock.lock.redis.LockRecords;
import java.util.function.Supplier;

/** What a write script's reply means: the reply itself when the write happened, else the refusal as an exception. */
final class CatalogOutcomes {

    private CatalogOutcomes() {}

    static JsonNode written(JsonNode reply, Guard guard, Supplier<UnknownIdException> notFound) {
        return switch (reply.path("s").asText()) {
            case "OK" -> reply;
            case "NOT_FOUND" -> throw notFound.get();
            case "FORBIDDEN" ->
                throw new ForbiddenException(
                        "Only its creator or an admin may delete configurator " + guard.configuratorId());
            case "INVALID" ->
                throw new InvalidInputException(reply.path("message").asText());
            case "LOCKED" -> throw new LockedException(LockRecords.lock(reply.path("lock")));
            case "KEY_REUSED" -> throw new IdempotencyKeyReusedException();
            case "STALE_TOKEN" ->
                throw new LockTokenMismatchException(guard.lockToken().orElse(0));
            default -> throw new IllegalStateException("a write script answered " + reply);
        };
    }
}
