package io.editlock.catalog;

/** An {@code Idempotency-Key} sent again with another body or on another route (422, docs/protocol.md §8). */
public class IdempotencyKeyReusedException extends RuntimeException {

    public IdempotencyKeyReusedException() {
        super(
                "This Idempotency-Key was already used for another request (another body or route); use a new key",
                null,
                false,
                false);
    }
}
