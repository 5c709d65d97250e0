package io.editlock.redis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.FrozenRedis;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §8: a write that runs after its node gave up on it writes nothing, by a last moment
 * named on Redis's clock. A reading of that clock whose request waited before Redis read it (here
 * Redis is frozen for a while; in production a connection still opening, a node busy starting up)
 * must not put the clock ahead: the last moment would come late, and a write answered 503 could still run.
 */
@QuarkusTest
@TestProfile(FrozenRedis.class)
class StoreClockWaitTest {

    /** Shorter than the profile's one-second timeout, so the reading waits but is answered. */
    private static final long WAIT_MILLIS = 600;

    @Inject
    PipelinedRedis redis;

    @Test
    void aReadingThatWaitedForRedisDoesNotPutItsClockAhead() throws Exception {
        StoreClock clock = new StoreClock(redis, System::currentTimeMillis);
        CompletableFuture<Long> reading;
        FrozenRedis.freeze();
        try {
            reading = clock.read().subscribeAsCompletionStage();
            Thread.sleep(WAIT_MILLIS);
        } finally {
            FrozenRedis.thaw();
        }
        reading.get(10, TimeUnit.SECONDS);

        // Redis runs on this machine: its clock is this machine's, so the reading must not be ahead of it.
        long ahead = clock.nowMillis() - System.currentTimeMillis();
        assertTrue(ahead <= 0, "a reading that waited " + WAIT_MILLIS + " ms put Redis's clock " + ahead + " ms ahead");
    }
}
