package io.editlock.lock.redis;

import io.editlock.lock.Lock;
import io.editlock.lock.ReleasedLock;
import java.util.List;

/** What acquire_lock answered (read by {@link ScriptReplies#acquire}). */
public sealed interface AcquireReply {

    /** What the run released and announced on the way (leases found expired); empty when it decided nothing. */
    List<ReleasedLock> released();

    /**
     * @param reentry  the user already held it: same grant, lease renewed
     * @param schedule no look at the configurator is due before this lease ends: schedule one
     */
    record Granted(Lock lock, boolean reentry, boolean schedule, List<ReleasedLock> released) implements AcquireReply {}

    /** Another user holds a conflicting lock. */
    record Locked(Lock blocking, List<ReleasedLock> released) implements AcquireReply {}

    /** The user holds as many locks in the configurator as one user may: a new grant was refused. */
    record LimitReached(int limit, List<ReleasedLock> released) implements AcquireReply {}

    /** No such configurator or item. */
    record NotFound() implements AcquireReply {
        @Override
        public List<ReleasedLock> released() {
            return List.of();
        }
    }

    /** The request was given up (cancelled) before it ran: it did nothing. */
    record GivenUp() implements AcquireReply {
        @Override
        public List<ReleasedLock> released() {
            return List.of();
        }
    }
}
