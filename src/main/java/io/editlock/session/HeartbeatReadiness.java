package io.editlock.session;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

/**
 * Not ready while the store refuses this node's heartbeat: a node that cannot write its heartbeat cannot
 * write a lock either. That covers a store that answers but takes no writes (Redis full under
 * {@code noeviction}: {@code PING}, reads and script loads go on while every grant fails), which the lock
 * store's check does not see. It follows the beats, once a socket sweep, so it asks the store nothing.
 *
 * <p>The public readiness page names the kind of refusal in plain words; Redis's reply, which may name
 * keys or addresses, goes to the node's log, once each time the reason changes.
 */
@Readiness
@ApplicationScoped
public class HeartbeatReadiness implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(HeartbeatReadiness.class);

    static final String NAME = "editlock heartbeat";

    private final NodeHeartbeat heartbeat;
    /** The reason of the last answer, null while ready: what the log was last told. */
    private final AtomicReference<String> lastReason = new AtomicReference<>();

    public HeartbeatReadiness(NodeHeartbeat heartbeat) {
        this.heartbeat = heartbeat;
    }

    @Override
    public HealthCheckResponse call() {
        return heartbeat.refusal().map(this::down).orElseGet(this::up);
    }

    private HealthCheckResponse up() {
        if (lastReason.getAndSet(null) != null) {
            LOG.info("the lock store takes this node's heartbeat again: ready");
        }
        return HealthCheckResponse.up(NAME);
    }

    private HealthCheckResponse down(String refusal) {
        String reason = reason(refusal);
        if (!reason.equals(lastReason.getAndSet(reason))) {
            LOG.warnf("not ready, %s: %s", reason, refusal);
        }
        return HealthCheckResponse.named(NAME).down().withData("reason", reason).build();
    }

    /** What the refusal means to an operator, from Redis's error code (docs/operations.md, Redis settings). */
    static String reason(String refusal) {
        String code = refusal.split("\\s", 2)[0];
        return switch (code) {
            case "OOM" -> "the lock store is full";
            case "READONLY" -> "the lock store is read-only (a replica)";
            case "NOPERM", "NOAUTH", "WRONGPASS" -> "the lock store does not permit this node's writes";
            default -> {
                if (refusal.startsWith("no reply to")) {
                    yield "the lock store does not answer";
                }
                yield code.matches("[A-Z]+")
                        ? "the lock store refuses this node's writes"
                        : "the lock store cannot be reached";
            }
        };
    }
}
