package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This node's heartbeat in the store: a key with a short TTL, set at every socket sweep, that tells the
 * other nodes this one lives (a resume asking whether a socket is open, a take-over at its deadline:
 * docs/protocol.md §5, §13). A missing key says a node died only while the store was in reach for a
 * whole TTL: after an outage every node's key has lapsed, the live ones' too, until their next beat.
 * So this node judges the others by theirs only once its own beats have gone through for a TTL.
 */
@ApplicationScoped
public class NodeHeartbeat {

    /** How often Quarkus's scheduler looks at its timers: no interval is shorter in practice. */
    private static final Duration SCHEDULER_TICK = Duration.ofSeconds(1);

    private static final long NOT_STEADY = -1;
    private static final long NEVER = Long.MIN_VALUE;

    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final NodeIdentity node;
    private final Duration ttl;
    /** {@code System.nanoTime()} of the first beat of the present run of beats that went through. */
    private volatile long steadySince = NOT_STEADY;
    /** {@code System.nanoTime()} of the latest beat that went through. */
    private volatile long lastBeat = System.nanoTime() - Long.MAX_VALUE / 2;
    /** {@code System.nanoTime()} of the latest beat the store did not take; {@link #NEVER} before the first. */
    private volatile long lastFailure = NEVER;
    /** Why the store refused the latest beat; null while the latest one went through (or before the first). */
    private volatile String refusal;

    private final AtomicLong beatsSent = new AtomicLong();
    private final AtomicLong latestAnswered = new AtomicLong();

    public NodeHeartbeat(PipelinedRedis redis, LockKeys keys, NodeIdentity node, EditlockConfig config) {
        this.redis = redis;
        this.keys = keys;
        this.node = node;
        // A sweep interval under a second still sweeps once a second: a heartbeat that lasted five such
        // intervals would lapse between sweeps.
        Duration sweepsEvery = config.session().sweepInterval();
        this.ttl = (sweepsEvery.compareTo(SCHEDULER_TICK) < 0 ? SCHEDULER_TICK : sweepsEvery).multipliedBy(5);
    }

    /**
     * Sets this node's key again; called at every socket sweep. A beat that finds the key gone though
     * the last one went through within the TTL tells that the store lost keys meanwhile (it restarted, or
     * a replica behind took over) without this node noticing an outage: the other nodes' keys may be gone
     * too, until their next beats, so the run of steady beats starts again.
     */
    public void beat() {
        long beat = beatsSent.incrementAndGet();
        redis.execute(Command.SET, keys.nodeAlive(node.id()), "1", "PX", String.valueOf(ttl.toMillis()), "GET")
                .subscribe()
                .with(
                        previous -> {
                            boolean latest = answered(beat);
                            long now = System.nanoTime();
                            boolean keyLost = previous == null && now - lastBeat < ttl.toNanos();
                            if (steadySince == NOT_STEADY || keyLost) {
                                steadySince = now;
                            }
                            lastBeat = now;
                            if (latest) {
                                refusal = null;
                            }
                        },
                        failure -> {
                            steadySince = NOT_STEADY;
                            lastFailure = System.nanoTime();
                            // A beat that waited out its timeout says nothing of a store that answered a later one.
                            if (answered(beat)) {
                                refusal = String.valueOf(failure.getMessage());
                            }
                        });
    }

    /**
     * Whether this node was cut off from the store within the last TTL (a beat failed): what its sockets
     * did meanwhile (ended, left a line) may not be in the store yet, and is carried out within a second
     * of the store answering again (see {@link SocketReleases}). Not so at start: there is nothing to catch
     * up on then.
     */
    public boolean cutOffLately() {
        long failed = lastFailure;
        return failed != NEVER && System.nanoTime() - failed < ttl.toNanos();
    }

    /** Whether another node's missing key means it died: this node's own beats went through for a whole TTL. */
    public boolean othersCanBeJudged() {
        long since = steadySince;
        return since != NOT_STEADY && System.nanoTime() - since >= ttl.toNanos();
    }

    /** Whether this beat is the latest answered so far; notes it so. */
    private boolean answered(long beat) {
        return latestAnswered.accumulateAndGet(beat, Math::max) == beat;
    }

    /** Why the store refused this node's latest beat; empty while the latest one went through. */
    public Optional<String> refusal() {
        return Optional.ofNullable(refusal);
    }
}
