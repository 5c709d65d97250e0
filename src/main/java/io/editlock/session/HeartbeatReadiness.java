package io.editlock.session;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Not ready while the store refuses this node's heartbeat: a node that cannot write its heartbeat cannot
 * write a lock either. That covers a store that answers but takes no writes (Redis full under
 * {@code noeviction}: {@code PING}, reads and script loads go on while every grant fails), which the lock
 * store's check does not see. It follows the beats, once a socket sweep, so it asks the store nothing.
 */
@Readiness
@ApplicationScoped
public class HeartbeatReadiness implements HealthCheck {

    static final String NAME = "editlock heartbeat";

    private final NodeHeartbeat heartbeat;

    public HeartbeatReadiness(NodeHeartbeat heartbeat) {
        this.heartbeat = heartbeat;
    }

    @Override
    public HealthCheckResponse call() {
        return heartbeat
                .refusal()
                .map(error -> HealthCheckResponse.named(NAME)
                        .down()
                        .withData("error", error)
                        .build())
                .orElseGet(() -> HealthCheckResponse.up(NAME));
    }
}
