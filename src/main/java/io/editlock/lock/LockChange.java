package io.editlock.lock;

import java.util.List;

/**
 * A change of one configurator's locks as every node receives it: the whole live state after the
 * change, and what was released by it.
 */
public record LockChange(long configuratorId, List<Lock> locks, List<ReleasedLock> released) {
}
