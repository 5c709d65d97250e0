package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.limits.SharedRateLimit;
import io.editlock.limits.Verdict;
import io.editlock.redis.LockKeys;
import io.editlock.redis.ScriptExecutor;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Per-user limit on lock requests, shared by every node (see {@link SharedRateLimit}). */
@ApplicationScoped
public class RateLimiter {

    private final SharedRateLimit limit;

    public RateLimiter(ScriptExecutor scripts, LockKeys keys, EditlockConfig config) {
        this.limit = new SharedRateLimit(
                scripts, keys::lockRequestRate, config.rateLimit().lockRequestsPerSecond());
    }

    public Uni<Verdict> allowLockRequest(String userId) {
        return limit.allow(userId);
    }

    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void forgetPastWindows() {
        limit.forgetPastWindows();
    }
}
