package io.editlock.lock.redis;

import io.editlock.redis.ScriptExecutor;
import io.smallrye.health.api.AsyncHealthCheck;
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

    public LockStoreReadiness(ScriptExecutor scripts) {
        this.scripts = scripts;
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
                        .withData("error", String.valueOf(failure.getMessage()))
                        .build());
    }
}
