package io.editlock.limits;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.ScriptExecutor;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Per-user limit on REST writes, {@code editlock.limits.rest.writes-per-second}, shared by every node. */
@ApplicationScoped
public class RestWriteLimit {

    private final SharedRateLimit limit;
    private final LimitMetrics metrics;
    private final int perSecond;

    public RestWriteLimit(ScriptExecutor scripts, LockKeys keys, LimitMetrics metrics, EditlockConfig config) {
        this.metrics = metrics;
        this.perSecond = config.limits().rest().writesPerSecond();
        this.limit = new SharedRateLimit(scripts, keys::restWriteRate, perSecond);
    }

    /** @return whether the user may write once more in this second */
    public Uni<Boolean> allow(String userId) {
        return limit.allow(userId).map(verdict -> {
            if (verdict == Verdict.REFUSED) {
                metrics.refused(LimitMetrics.Limit.REST_WRITES);
            }
            return verdict == Verdict.ALLOWED;
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
