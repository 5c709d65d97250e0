package io.editlock.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Guard;
import io.editlock.lock.Lock;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.lock.LockTokenMismatchException;
import io.editlock.lock.LockedException;
import io.editlock.lock.redis.LockRecords;

/**
 * What a catalog write script answered, read in one place ({@link #of}) and given its meaning in
 * one place ({@link #body}). The shapes are written in each script's header (src/main/resources/lua/).
 */
public sealed interface WriteReply {

    /**
     * A keyed create's retry named an entity that no longer exists (it was deleted since the first
     * reply): the index entry the retry wrote for it must go, or it would point at nothing for good.
     */
    default boolean gone() {
        return false;
    }

    /** The write happened; {@code body} is the whole reply (record, ids of what a delete took along, …). */
    record Written(JsonNode body, boolean gone) implements WriteReply {}

    /** No such configurator, item or entry. */
    record NotFound() implements WriteReply {}

    /** The user may not delete it: neither its creator nor an admin. */
    record Forbidden() implements WriteReply {}

    /** The write breaks a rule of the catalog (a reference to another configurator's item, a full page). */
    record Invalid(String message) implements WriteReply {}

    /** Another user's lock blocks the write (the widest blocker, public view). */
    record Locked(Lock blocking) implements WriteReply {}

    /** The Idempotency-Key was first used for another request. */
    record KeyReused(boolean gone) implements WriteReply {}

    /** The Lock-Token names a grant the user no longer holds. */
    record StaleToken() implements WriteReply {}

    /** The write reached Redis after its last moment, when its node no longer waited for it: nothing was written. */
    record GivenUp() implements WriteReply {}

    /**
     * The body of a write that happened; a refusal as its exception, which the edges turn into wire codes.
     *
     * @param guard the write's guard, which the refusals of a delete and of a stale token name
     * @param entity what a NOT_FOUND names: what the write changes, or the configurator or item a create
     *     goes into
     * @param id its id
     */
    default JsonNode body(Guard guard, Entity entity, Object id) {
        if (this instanceof Written written) {
            return written.body();
        }
        if (this instanceof NotFound) {
            throw UnknownIdException.of(entity, id);
        }
        if (this instanceof Forbidden) {
            throw new NotPermittedException(
                    "Only its creator or an admin may delete configurator " + guard.configuratorId());
        }
        if (this instanceof Invalid invalid) {
            throw new InvalidInputException(invalid.message());
        }
        if (this instanceof Locked locked) {
            throw new LockedException(locked.blocking());
        }
        if (this instanceof KeyReused) {
            throw new IdempotencyKeyReusedException();
        }
        if (this instanceof StaleToken) {
            throw new LockTokenMismatchException(guard.lockToken().orElse(0));
        }
        if (this instanceof GivenUp) {
            throw new LockStoreUnavailableException("the write reached the lock store too late to run", null);
        }
        throw new IllegalStateException("unhandled write reply " + this);
    }

    /** {@code {s=OK|NOT_FOUND|FORBIDDEN|INVALID|LOCKED|KEY_REUSED|STALE_TOKEN|GIVEN_UP, …, gone?}}. */
    static WriteReply of(JsonNode reply) {
        return switch (reply.path("s").asText()) {
            case "OK" -> new Written(reply, reply.path("gone").asBoolean());
            case "NOT_FOUND" -> new NotFound();
            case "FORBIDDEN" -> new Forbidden();
            case "INVALID" -> new Invalid(reply.path("message").asText());
            case "LOCKED" -> new Locked(LockRecords.lock(reply.path("lock")));
            case "KEY_REUSED" -> new KeyReused(reply.path("gone").asBoolean());
            case "STALE_TOKEN" -> new StaleToken();
            case "GIVEN_UP" -> new GivenUp();
            default -> throw new IllegalStateException("a write script answered " + reply);
        };
    }
}
