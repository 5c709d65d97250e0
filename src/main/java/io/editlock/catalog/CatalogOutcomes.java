package io.editlock.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Guard;
import io.editlock.lock.LockTokenMismatchException;
import io.editlock.lock.LockedException;
import java.util.function.Supplier;

/** What a write script's reply means: its body when the write happened, else the refusal as an exception. */
final class CatalogOutcomes {

    private CatalogOutcomes() {}

    static JsonNode written(WriteReply reply, Guard guard, Supplier<UnknownIdException> notFound) {
        if (reply instanceof WriteReply.Written written) {
            return written.body();
        }
        if (reply instanceof WriteReply.NotFound) {
            throw notFound.get();
        }
        if (reply instanceof WriteReply.Forbidden) {
            throw new ForbiddenException(
                    "Only its creator or an admin may delete configurator " + guard.configuratorId());
        }
        if (reply instanceof WriteReply.Invalid invalid) {
            throw new InvalidInputException(invalid.message());
        }
        if (reply instanceof WriteReply.Locked locked) {
            throw new LockedException(locked.blocking());
        }
        if (reply instanceof WriteReply.KeyReused) {
            throw new IdempotencyKeyReusedException();
        }
        if (reply instanceof WriteReply.StaleToken) {
            throw new LockTokenMismatchException(guard.lockToken().orElse(0));
        }
        throw new IllegalStateException("unhandled write reply " + reply);
    }
}
