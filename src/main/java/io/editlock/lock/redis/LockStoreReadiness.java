package io.editlock.lock.redis;

import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.ScriptExecutor;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready = the lock store answers and holds every script. A script Redis forgot (restart,
 * SCRIPT FLUSH, failover) is loaded again here, so the first request after it pays nothing.
 */
@Readiness
@ApplicationScoped
public class LockStoreReadiness implements AsyncHealthCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final ScriptExecutor scripts;
    private final PipelinedRedis redis;

    public LockStoreReadiness(ScriptExecutor scripts, PipelinedRedis redis) {
        this.scripts = scripts;
        this.redis = redis;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return scripts.preload()
                .map(loaded -> HealthCheckResponse.named("editlock lock store")
                        .up()
                        .withData("scripts", loaded)
                        .build())
                .ifNoItem()
                .after(TIMEOUT)
                .fail()
                .onFailure()
                .recoverWithItem(failure -> HealthCheckResponse.named("editlock lock store")
                        .down()
                        .withData("error", error(failure))
                        .build());
    }

    /**
     * A check that runs out of time fails with no message, and a command waiting for a connection that
     * does not open fails only with its timeout: the error then says why the connection did not open.
     */
    private String error(Throwable failure) {
        String error;
        if (failure instanceof TimeoutException) {
            error = "no answer within " + TIMEOUT.toMillis() + " ms";
        } else if (failure.getMessage() != null) {
            error = failure.getMessage();
        } else {
            error = PipelinedRedis.describe(failure);
        }
        return redis.openFailure()
                .map(reason -> error + " (the last Redis connection did not open: " + reason + ")")
                .orElse(error);
    }
}
