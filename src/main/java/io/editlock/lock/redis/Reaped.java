package io.editlock.lock.redis;

import io.editlock.lock.ReleasedLock;
import java.util.List;

/** What reap_expired_locks answered: what ran out, and the earliest lease end left (epoch ms, 0 when no lock is left). */
public record Reaped(List<ReleasedLock> released, long nextExpiryMillis) {}
