package io.editlock.limits;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.ScriptExecutor;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Per-user limit on lock requests, {@code editlock.rate-limit.lock-requests-per-second}, shared by every
 * node (docs/protocol.md §4).
 */
@ApplicationScoped
public class LockRequestLimit {

    private final SharedRateLimit limit;
    private final LimitMetrics metrics;
    private final int perSecond;

    public LockRequestLimit(ScriptExecutor scripts, LockKeys keys, LimitMetrics metrics, EditlockConfig config) {
        this.metrics = metrics;
        this.perSecond = config.rateLimit().lockRequestsPerSecond();
        this.limit = new SharedRateLimit(scripts, keys::lockRequestRate, perSecond);
    }

    /** @return whether the user may ask for a lock once more in this second */
    public Uni<Verdict> allow(String userId) {
        return limit.allow(userId).invoke(verdict -> {
            if (verdict == Verdict.REFUSED) {
                metrics.refused(LimitMetrics.Limit.LOCK_REQUESTS);
            }
        });
    }

    public int perSecond() {
        return perSecond;
    }

    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void forgetPastWindows() {
        limit.forgetPastWindows();
    }
}
