package io.editlock.redis;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * This node's reading of Redis's clock, the one every script decides by ({@code lua/clock_lib.lua}).
 * A node that must name a moment to a script (the last moment a write may still run) names it on
 * that clock, so a node whose own clock is off does not shift it. The offset is read with TIME at
 * start and every minute; it is off by at most half a round trip.
 */
@ApplicationScoped
public class StoreClock {

    private static final Logger LOG = Logger.getLogger(StoreClock.class);

    private final PipelinedRedis redis;
    private final LongSupplier localMillis;
    /** Redis's clock minus this node's, in ms; 0 until the first reading. */
    private volatile long offsetMillis;

    @Inject
    public StoreClock(PipelinedRedis redis) {
        this(redis, System::currentTimeMillis);
    }

    StoreClock(PipelinedRedis redis, LongSupplier localMillis) {
        this.redis = redis;
        this.localMillis = localMillis;
    }

    /** Now on Redis's clock, in epoch milliseconds, without asking Redis. */
    public long nowMillis() {
        return localMillis.getAsLong() + offsetMillis;
    }

    void readAtStart(@Observes StartupEvent started) {
        read().subscribe().with(offset -> {}, failure -> {});
    }

    @Scheduled(
            every = "60s",
            delay = 60,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> readEveryMinute() {
        return read().replaceWithVoid().onFailure().recoverWithNull();
    }

    /** Reads Redis's clock and keeps the offset; @return the offset in ms. */
    public Uni<Long> read() {
        long sent = localMillis.getAsLong();
        return redis.execute(Command.TIME)
                .map(time -> {
                    long received = localMillis.getAsLong();
                    long offset = storeMillis(time) - (sent + received) / 2;
                    offsetMillis = offset;
                    return offset;
                })
                .onFailure()
                .invoke(failure -> LOG.debugf("reading Redis's clock failed (will retry): %s", failure.getMessage()));
    }

    private static long storeMillis(Response time) {
        return time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
    }
}
