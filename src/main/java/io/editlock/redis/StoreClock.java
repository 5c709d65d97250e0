package io.editlock.redis;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * This node's reading of Redis's clock, the one every script decides by ({@code lua/clock_lib.lua}).
 * A node that must name a moment to a script (the last moment a write may still run) names it on
 * that clock, so a node whose own clock is off does not shift it. The offset is read with TIME at
 * start and every minute.
 *
 * <p>The reading never puts Redis's clock ahead of where it is: Redis read its clock before its reply
 * reached this node, so the time of the reply's arrival bounds the offset from below. A moment named on
 * this clock therefore comes early, never late, and a write that fails closed by it (docs/protocol.md
 * §8) cannot run after its node gave up on it. Taking the middle of the round trip instead would put
 * the clock ahead by half of any wait before Redis read the request: a connection still opening, a
 * node busy starting up. Of a few readings in a row, the tightest bound is kept.
 *
 * <p>Between readings the clock moves on by this node's monotonic clock ({@link System#nanoTime}), not by
 * its wall clock: NTP or a resumed VM may step the wall clock forwards or back at any moment, and a moment
 * named on a clock that stepped back would come early by the whole step (every write and unlock given up
 * at once), one named on a clock that stepped forwards late (a write run after its node answered 503).
 * A node whose own clock is seconds off Redis's says so in its log: tokens' expiry and the jobs of
 * Quarkus's scheduler still go by it (docs/operations.md, Clocks).
 */
@ApplicationScoped
public class StoreClock {

    private static final Logger LOG = Logger.getLogger(StoreClock.class);

    /** Readings per update: the first may wait for its connection to open, the next ones do not. */
    private static final int READINGS = 3;

    private static final Duration FIRST_RETRY = Duration.ofMillis(100);
    private static final Duration LONGEST_RETRY = Duration.ofSeconds(5);

    /** How far this node's wall clock may be off Redis's before the log says so, and by how much it must change to be said again. */
    private static final long NOTED_SKEW_MILLIS = 2_000;

    private final PipelinedRedis redis;
    private final LongSupplier wallMillis;
    private final LongSupplier elapsedMillis;
    private final long runWithinMillis;
    /**
     * Redis's clock minus {@link #elapsedMillis}, in ms. Until the first reading it is this node's wall clock
     * minus it, as it was when the clock was made.
     */
    private volatile long offsetMillis;
    /** The skew of this node's wall clock from Redis's last said in the log; 0 while it was in step. */
    private long saidSkewMillis;

    /** @param timeout how long the node waits for a script's reply before it tells its caller nothing happened */
    @Inject
    public StoreClock(
            PipelinedRedis redis,
            @ConfigProperty(name = "quarkus.redis.timeout", defaultValue = "10s") Duration timeout) {
        this(redis, System::currentTimeMillis, timeout);
    }

    StoreClock(PipelinedRedis redis, LongSupplier localMillis) {
        this(redis, localMillis, Duration.ofSeconds(10));
    }

    /**
     * @param wallMillis the node's own clock, in epoch ms: what moments are named on until the first
     *     reading, and what the log compares Redis's clock with
     */
    StoreClock(PipelinedRedis redis, LongSupplier wallMillis, Duration timeout) {
        this(redis, wallMillis, () -> System.nanoTime() / 1_000_000, timeout);
    }

    StoreClock(PipelinedRedis redis, LongSupplier wallMillis, LongSupplier elapsedMillis, Duration timeout) {
        this.redis = redis;
        this.wallMillis = wallMillis;
        this.elapsedMillis = elapsedMillis;
        this.offsetMillis = wallMillis.getAsLong() - elapsedMillis.getAsLong();
        // The last fifth of the timeout lets the reply of a script that ran come back before the node
        // gives up on it and tells its caller nothing happened.
        this.runWithinMillis = timeout.toMillis() * 4 / 5;
    }

    /** Now on Redis's clock, in epoch milliseconds, without asking Redis. */
    public long nowMillis() {
        return elapsedMillis.getAsLong() + offsetMillis;
    }

    /**
     * The last moment, on Redis's clock, a change asked for now may still run: a script that runs later
     * does nothing, for its caller was told nothing happened (writes fail closed, docs/protocol.md §8; an
     * unlock answered UNAVAILABLE released nothing, §4).
     */
    public long lastMomentToRun() {
        return nowMillis() + runWithinMillis;
    }

    /**
     * Redis may not answer yet when the node starts (it starts beside it, or is failing over): until a
     * reading succeeds, a moment named here is on this node's own clock, so the reading is retried
     * until the minute's readings take over.
     */
    void readAtStart(@Observes StartupEvent started) {
        read().onFailure()
                .retry()
                .withBackOff(FIRST_RETRY, LONGEST_RETRY)
                .expireIn(Duration.ofMinutes(1).toMillis())
                .subscribe()
                .with(offset -> {}, failure -> {});
    }

    @Scheduled(
            every = "60s",
            delayed = "60s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> readEveryMinute() {
        return read().replaceWithVoid().onFailure().recoverWithNull();
    }

    /** Reads Redis's clock and keeps the offset; @return the offset in ms. */
    public Uni<Long> read() {
        return Multi.createBy()
                .repeating()
                .uni(this::lowerBound)
                .atMost(READINGS)
                .collect()
                .with(Collectors.reducing(Long.MIN_VALUE, Math::max))
                .invoke(offset -> {
                    offsetMillis = offset;
                    noteSkew(nowMillis() - wallMillis.getAsLong());
                })
                .onFailure()
                .invoke(failure -> LOG.debugf("reading Redis's clock failed (will retry): %s", failure.getMessage()));
    }

    /**
     * One reading: Redis's time minus this node's when the reply arrived, less a millisecond for the two
     * clocks' rounding to whole milliseconds.
     */
    private Uni<Long> lowerBound() {
        return redis.execute(Command.TIME).map(time -> storeMillis(time) - elapsedMillis.getAsLong() - 1);
    }

    /**
     * Says in the log when this node's wall clock is off Redis's by seconds, when that changes by seconds
     * (a step), and when it is back in step. Nothing of the lock store goes by it, but a token's expiry
     * and the node's periodic work (Quarkus's scheduler) do.
     */
    private synchronized void noteSkew(long skewMillis) {
        boolean off = Math.abs(skewMillis) >= NOTED_SKEW_MILLIS;
        if (off && Math.abs(skewMillis - saidSkewMillis) >= NOTED_SKEW_MILLIS) {
            LOG.warnf(
                    "this node's clock is %.1f s %s Redis's: leases, deadlines and the moments the node names to"
                            + " Redis go by Redis's clock, but tokens' expiry and the schedule of the node's periodic"
                            + " work (heartbeat, renewals, sweeps) go by its own, and a step back holds that work up"
                            + " for as long as the step (docs/operations.md, Clocks)",
                    Math.abs(skewMillis) / 1000.0, skewMillis > 0 ? "behind" : "ahead of");
            saidSkewMillis = skewMillis;
        } else if (!off && saidSkewMillis != 0) {
            LOG.infof("this node's clock is in step with Redis's again (%d ms apart)", Math.abs(skewMillis));
            saidSkewMillis = 0;
        }
    }

    private static long storeMillis(Response time) {
        return time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
    }
}
