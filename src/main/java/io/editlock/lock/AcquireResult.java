package io.editlock.lock;

import java.util.List;

/** What a lock request came to. The edges (WebSocket, REST) map these to the wire, each in one place. */
public sealed interface AcquireResult {

    /**
     * @param reentry  the user already held it: same grant, lease renewed
     * @param released what the one-configurator rule took away from the user
     */
    record Granted(Lock lock, boolean reentry, List<Resource> released) implements AcquireResult {}

    /** Another user holds a conflicting lock. */
    record Refused(Resource requested, Lock blocking) implements AcquireResult {}

    /** No such configurator or item. */
    record NotFound(Resource requested) implements AcquireResult {}

    /** The user holds {@code limit} locks in the configurator already, the most one user may (docs/protocol.md §4). */
    record LimitReached(Resource requested, int limit) implements AcquireResult {}
}
