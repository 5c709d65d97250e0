package io.editlock.limits;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.ScriptExecutor;
import io.editlock.redis.StoreClock;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The per-user rates shared by every node (docs/protocol.md §4): lock requests
 * ({@code editlock.rate-limit.lock-requests-per-second}) and REST writes
 * ({@code editlock.limits.rest.writes-per-second}). Each refusal is counted under its limit's tag.
 */
@ApplicationScoped
public class UserRates {

    private final SharedRateLimit lockRequests;
    private final SharedRateLimit restWrites;

    public UserRates(
            ScriptExecutor scripts, StoreClock clock, LockKeys keys, LimitMetrics metrics, EditlockConfig config) {
        this.lockRequests = new SharedRateLimit(
                scripts,
                keys::lockRequestRate,
                config.rateLimit().lockRequestsPerSecond(),
                clock::nowMillis,
                () -> metrics.refused(LimitMetrics.Limit.LOCK_REQUESTS));
        this.restWrites = new SharedRateLimit(
                scripts,
                keys::restWriteRate,
                config.limits().rest().writesPerSecond(),
                clock::nowMillis,
                () -> metrics.refused(LimitMetrics.Limit.REST_WRITES));
    }

    public SharedRateLimit lockRequests() {
        return lockRequests;
    }

    public SharedRateLimit restWrites() {
        return restWrites;
    }

    // Not while the app stops: a run that fires after its beans are gone logs an ERROR for nothing.
    @Scheduled(
            every = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void forgetPastWindows() {
        lockRequests.forgetPastWindows();
        restWrites.forgetPastWindows();
    }
}
