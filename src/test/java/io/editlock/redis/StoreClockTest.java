package io.editlock.redis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A node names the last moment of a write on Redis's clock (docs/protocol.md §8): a node whose own clock
 * is an hour off still names the right moment once it has read Redis's.
 */
@QuarkusTest
class StoreClockTest {

    private static final long HOUR = Duration.ofHours(1).toMillis();

    @Inject
    PipelinedRedis redis;

    @Test
    void aNodeClockThatIsOffIsCorrectedByReadingRedis() {
        for (long off : new long[] {-HOUR, HOUR}) {
            StoreClock clock = new StoreClock(redis, () -> System.currentTimeMillis() + off);
            assertTrue(Math.abs(clock.nowMillis() - System.currentTimeMillis() - off) < 1000, "unread: the node's own");
            clock.read().await().atMost(Duration.ofSeconds(10));
            long error = clock.nowMillis() - System.currentTimeMillis();
            // Redis runs on this machine: its clock is this machine's.
            assertTrue(Math.abs(error) < 1000, "a node " + off + " ms off must name Redis's now, was off by " + error);
        }
    }
}
