package io.editlock.catalog;

/** A retry under an {@code Idempotency-Key} whose first request is still in progress (409, docs/protocol.md §8). */
public class IdempotencyKeyInUseException extends RuntimeException {

    public IdempotencyKeyInUseException() {
        super("A request with this Idempotency-Key is still in progress; retry in a moment", null, false, false);
    }
}
