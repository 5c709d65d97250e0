package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.PipelinedRedis.RedisTimeoutException;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;
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
 *
 * <p>The whole stop has one deadline: the stop-wait plus one store timeout ({@code
 * quarkus.redis.timeout}) after the SIGTERM, and no store call is awaited past it. A store that freezes
 * midway (connections open, no answers) fails every further call only after a timeout of its own, so
 * once one call has timed out the rest are skipped: waited for one after another, they would keep the
 * node past its orchestrator's patience, which then kills it.
 */
@Readiness
@ApplicationScoped
public class NodeStop implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(NodeStop.class);

    private static final long POLL_MS = 100;

    private final SessionLifecycle lifecycle;
    private final SocketReleases releases;
    private final Duration wait;
    /** No store call outlasts it: a call still unanswered by then fails (PipelinedRedis). */
    private final Duration storeTimeout;

    public NodeStop(
            SessionLifecycle lifecycle,
            SocketReleases releases,
            EditlockConfig config,
            @ConfigProperty(name = "quarkus.redis.timeout", defaultValue = "10s") Duration storeTimeout) {
        this.lifecycle = lifecycle;
        this.releases = releases;
        this.wait = config.session().stopWait().orElse(config.session().gracePeriod());
        this.storeTimeout = storeTimeout;
    }

    void stop(@Observes ShutdownDelayInitiatedEvent event) {
        long started = System.nanoTime();
        lifecycle.stop();
        // A drop whose call timed out counts as ended too, but only after this bound (its call began after
        // `started`), so a frozen store is not taken for one that noted the drops.
        if (!waitUntil(lifecycle::allEnded, started + storeTimeout.toNanos())) {
            // Noting a drop is one script run; when those do not come back, the store is out of reach (or
            // frozen), and so is every resume and release: waiting for them would only delay the exit.
            LOG.warn("stopping: the lock store did not take every socket's end in time; what they kept runs out"
                    + " with its leases");
            return;
        }
        if (wait.isZero()) {
            return; // the drops are noted: any node, the restarted one too, takes their resumes
        }
        StoreCalls store = new StoreCalls(started + wait.plus(storeTimeout).toNanos());
        waitUntil(() -> nobodyAwaitsResume(store), started + wait.toNanos());
        int ended = 0;
        try {
            Integer graces = store.await(lifecycle::endEveryGrace);
            ended = graces == null ? 0 : graces;
            if (releases.waiting() > 0) {
                store.await(releases::retry);
            }
        } catch (RuntimeException e) {
            LOG.warnf("stopping: could not release what was not resumed (its leases will run out): %s", e);
        }
        if (store.timedOut) {
            LOG.warn("stopping: the lock store did not answer in time (frozen?), so the rest of the hand-over is"
                    + " skipped; what was not resumed runs out with its leases");
            return;
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

    private boolean nobodyAwaitsResume(StoreCalls store) {
        try {
            Integer awaiting = store.await(lifecycle::awaitingResume);
            return store.timedOut || awaiting == 0;
        } catch (RuntimeException e) {
            return true; // the store does not answer: no resume can happen anywhere, so waiting is no use
        }
    }

    /** Whether the condition held before the deadline (System.nanoTime()): met only at or after it counts as not. */
    private static boolean waitUntil(BooleanSupplier condition, long deadline) {
        while (true) {
            boolean met = condition.getAsBoolean();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (met) {
                return true;
            }
            try {
                Thread.sleep(
                        Math.min(POLL_MS, Math.max(1, Duration.ofNanos(left).toMillis())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /** The store calls of one stop, all under its deadline; once one times out, the others are not made. */
    private final class StoreCalls {

        private final long deadline;
        private boolean timedOut;

        StoreCalls(long deadline) {
            this.deadline = deadline;
        }

        /**
         * The call's item, or null when it timed out now or before (see {@link #timedOut}): then it is not
         * even made, as making some of them already changes what the node keeps.
         */
        <T> T await(Supplier<Uni<T>> call) {
            long sent = System.nanoTime();
            long left = deadline - sent;
            if (timedOut || left <= 0) {
                timedOut = true;
                return null;
            }
            try {
                return call.get().await().atMost(Duration.ofNanos(left));
            } catch (RuntimeException e) {
                // Calls in flight on a connection given up for its silence fail with it, not with a timeout
                // of their own.
                if (e instanceof TimeoutException
                        || e instanceof RedisTimeoutException
                        || System.nanoTime() - sent >= storeTimeout.toNanos()) {
                    timedOut = true;
                    return null;
                }
                throw e;
            }
        }
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("editlock node")
                .status(!lifecycle.stopping())
                .build();
    }
}
