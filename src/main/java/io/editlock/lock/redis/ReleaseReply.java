package io.editlock.lock.redis;

import io.editlock.lock.Lock;
import io.editlock.lock.ReleasedLock;
import java.util.List;

/** What release_lock answered (read by {@link ScriptReplies#release}). */
public sealed interface ReleaseReply {

    /** Every release the run made and announced, the asked one and expired leases found on the way. */
    List<ReleasedLock> released();

    record Released(Lock lock, List<ReleasedLock> released) implements ReleaseReply {}

    /** The user holds no such lock (or not that grant). */
    record NotHeld(List<ReleasedLock> released) implements ReleaseReply {}

    /** The release reached the store after its last moment, when its node had given up on it: it did nothing. */
    record GivenUp() implements ReleaseReply {
        @Override
        public List<ReleasedLock> released() {
            return List.of();
        }
    }
}
