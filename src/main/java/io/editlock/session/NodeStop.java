package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

/**
 * A node asked to stop (SIGTERM: a deploy, a scale-down) hands its users over instead of dropping
 * their work (docs/protocol.md §5). It becomes not ready, ends every socket as a drop (1001), waits
 * until each client has resumed on another node or the grace period is over, releases what nobody
 * resumed (reason {@code disconnect}), and only then lets the node go on stopping. When the store
 * does not take the sockets' drops, it waits for nothing more: no resume or release could happen.
 * Without this the sockets would end as the HTTP server closes them (with 1000, which reads as
 * "done"), after the Redis client: what their clients kept would be neither kept for a resume nor
 * released, but left to run out with the leases. It runs in Quarkus's pre-shutdown
 * ({@code quarkus.shutdown.delay-enabled}), while Redis, the subscriptions and the scheduler still
 * work. How long it waits is {@code editlock.session.stop-wait}.
 */
@Readiness
@ApplicationScoped
public class NodeStop implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(NodeStop.class);
    /** Closing sockets and noting their drops takes milliseconds; this bounds it when Redis is slow. */
    private static final Duration ENDING_AT_MOST = Duration.ofSeconds(5);

    private static final long POLL_MS = 100;

    private final SessionLifecycle lifecycle;
    private final SocketReleases releases;
    private final Duration wait;

    public NodeStop(SessionLifecycle lifecycle, SocketReleases releases, EditlockConfig config) {
        this.lifecycle = lifecycle;
        this.releases = releases;
        this.wait = config.session().stopWait().orElse(config.session().gracePeriod());
    }

    void stop(@Observes ShutdownDelayInitiatedEvent event) {
        long started = System.nanoTime();
        lifecycle.stop();
        if (!waitUntil(lifecycle::allEnded, ENDING_AT_MOST)) {
            // Noting a drop is one script run; when those do not come back, the store is out of reach (or
            // frozen), and so is every resume and release: waiting for them would only delay the exit.
            LOG.warn("stopping: the lock store did not take every socket's end in time; what they kept runs out"
                    + " with its leases");
            return;
        }
        if (wait.isZero()) {
            return; // the drops are noted: any node, the restarted one too, takes their resumes
        }
        waitUntil(this::nobodyAwaitsResume, wait);
        int ended = 0;
        try {
            ended = lifecycle.endEveryGrace().await().atMost(ENDING_AT_MOST);
            if (releases.waiting() > 0) {
                releases.retry().await().atMost(ENDING_AT_MOST);
            }
        } catch (RuntimeException e) {
            LOG.warnf("stopping: could not release what was not resumed (its leases will run out): %s", e);
        }
        if (releases.waiting() > 0) {
            LOG.warnf(
                    "stopping: the lock store did not take the release of %d ended socket(s); what they kept runs out"
                            + " with its leases",
                    releases.waiting());
        }
        LOG.infof(
                "stopped taking users after %d ms; ended the grace period of %d dropped socket(s) still waiting"
                        + " here (what no resume took is released)",
                Duration.ofNanos(System.nanoTime() - started).toMillis(), ended);
    }

    private boolean nobodyAwaitsResume() {
        try {
            return lifecycle.awaitingResume().await().atMost(ENDING_AT_MOST) == 0;
        } catch (RuntimeException e) {
            return true; // the store does not answer: no resume can happen anywhere, so waiting is no use
        }
    }

    private static boolean waitUntil(BooleanSupplier condition, Duration atMost) {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("editlock node")
                .status(!lifecycle.stopping())
                .build();
    }
}
