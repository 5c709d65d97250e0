package io.editlock.limits;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.ScriptExecutor;
import io.editlock.redis.StoreClock;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.BiFunction;

/**
 * The per-user rates shared by every node (docs/protocol.md §4): lock requests
 * ({@code editlock.rate-limit.lock-requests-per-second}) and REST writes
 * ({@code editlock.limits.rest.writes-per-second}). Each refusal is counted under its limit's tag.
 */
@ApplicationScoped
public class UserRates {

    /** One of the rates: what it allows a user a second, over all nodes. */
    public static final class Rate {
        private final SharedRateLimit limit;
        private final int perSecond;
        private final Runnable refused;

        Rate(
                ScriptExecutor scripts,
                StoreClock clock,
                BiFunction<String, Long, String> counterKey,
                int perSecond,
                Runnable refused) {
            this.limit = new SharedRateLimit(scripts, counterKey, perSecond, clock::nowMillis);
            this.perSecond = perSecond;
            this.refused = refused;
        }

        public Uni<Verdict> allow(String userId) {
            return limit.allow(userId).invoke(verdict -> {
                if (verdict == Verdict.REFUSED) {
                    refused.run();
                }
            });
        }

        public int perSecond() {
            return perSecond;
        }
    }

    private final Rate lockRequests;
    private final Rate restWrites;

    public UserRates(
            ScriptExecutor scripts, StoreClock clock, LockKeys keys, LimitMetrics metrics, EditlockConfig config) {
        this.lockRequests = new Rate(
                scripts,
                clock,
                keys::lockRequestRate,
                config.rateLimit().lockRequestsPerSecond(),
                () -> metrics.refused(LimitMetrics.Limit.LOCK_REQUESTS));
        this.restWrites = new Rate(
                scripts,
                clock,
                keys::restWriteRate,
                config.limits().rest().writesPerSecond(),
                () -> metrics.refused(LimitMetrics.Limit.REST_WRITES));
    }

    public Rate lockRequests() {
        return lockRequests;
    }

    public Rate restWrites() {
        return restWrites;
    }

    // Not while the app stops: a run that fires after its beans are gone logs an ERROR for nothing.
    @Scheduled(
            every = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void forgetPastWindows() {
        lockRequests.limit.forgetPastWindows();
        restWrites.limit.forgetPastWindows();
    }
}
