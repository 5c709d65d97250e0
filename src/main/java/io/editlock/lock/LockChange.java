package io.editlock.lock;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A change of one configurator's locks as every node receives it: the whole live state after the
 * change, what was released by it, when Redis published it (epoch ms, 0 if unknown), the look at
 * the configurator that the grant in it still has to have scheduled, if any, and the lengths of its
 * waiting lines (canonical resource -> waiters; empty when nobody waits) when the same change moved
 * them (docs/protocol.md §14), else empty.
 */
public record LockChange(
        long configuratorId,
        List<Lock> locks,
        List<ReleasedLock> released,
        long publishedAtMillis,
        Optional<LookToSchedule> look,
        Optional<Map<String, Long>> waiting) {

    /**
     * A grant's lease end, to be put in the lease-expiries set by the node of the granted socket once
     * its script answered, and by every other node too: that node may die before it does.
     */
    public record LookToSchedule(long atMillis, String grantedSocketId) {}
}
