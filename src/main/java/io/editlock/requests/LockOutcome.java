package io.editlock.requests;

import io.editlock.lock.AcquireResult;
import io.editlock.lock.Resource;

/** How a lock request ended: decided by the store, or refused before it got there. */
public sealed interface LockOutcome {

    /** The store's answer: granted, refused by another's lock, or nothing to lock. */
    record Decided(AcquireResult result) implements LockOutcome {}

    /** Beyond the user's lock requests a second (docs/protocol.md §4): the store was not asked. */
    record RateLimited(int perSecond) implements LockOutcome {}

    /**
     * The store could not be reached or did not answer in time: nothing was granted.
     *
     * @param resolved the requested resource with its configurator, when the failure came after the item
     *     was found (docs/protocol.md §4: {@code configuratorId} whenever the server knows it); else null
     */
    record Unavailable(Resource resolved) implements LockOutcome {}

    /** The {@code outcome} tag of the acquire timer. */
    default String auditName() {
        if (this instanceof RateLimited) {
            return "rate_limited";
        }
        if (this instanceof Unavailable) {
            return "unavailable";
        }
        AcquireResult result = ((Decided) this).result();
        if (result instanceof AcquireResult.Granted) {
            return "granted";
        }
        if (result instanceof AcquireResult.LimitReached) {
            return "limit_exceeded";
        }
        return result instanceof AcquireResult.Refused ? "refused" : "not_found";
    }
}
