package io.editlock.lock;

import java.util.List;

/**
 * A change of one configurator's locks as every node receives it: the whole live state after the
 * change, what was released by it, and when Redis published it (epoch ms, 0 if unknown).
 */
public record LockChange(long configuratorId, List<Lock> locks, List<ReleasedLock> released, long publishedAtMillis) {}
