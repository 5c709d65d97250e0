package io.editlock.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.scheduler.Scheduler;
import io.quarkus.scheduler.Trigger;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
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

    @Inject
    Scheduler scheduler;

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

    /**
     * NTP or a resumed VM may step a node's wall clock while it runs. Once Redis's clock is read, the
     * moments the node names go on at the pace of its monotonic clock: a step of the wall clock, back or
     * forwards, moves none of them (a step back would give up every write at once; a step forwards would
     * let a write run after its node answered 503).
     */
    @Test
    void aStepOfTheNodesWallClockMovesNoMomentItNames() {
        AtomicLong wall = new AtomicLong(System.currentTimeMillis());
        AtomicLong elapsed = new AtomicLong(1_000_000);
        StoreClock clock = new StoreClock(redis, wall::get, elapsed::get, Duration.ofSeconds(5));
        clock.read().await().atMost(Duration.ofSeconds(10));
        long read = clock.nowMillis();

        for (long step : new long[] {-HOUR, 2 * HOUR}) {
            wall.addAndGet(step);
            assertEquals(read, clock.nowMillis(), "a wall clock stepped by " + step + " ms must move nothing");
        }
        elapsed.addAndGet(1500);
        assertEquals(read + 1500, clock.nowMillis(), "the clock goes on as time passes");
        assertEquals(read + 1500 + 4000, clock.lastMomentToRun(), "four fifths of the timeout from now");
    }

    /**
     * A node keeps its reading fresh: Redis's clock may be stepped, or the reading at start have failed.
     * Before its first run the scheduler names a minute after the first run, which is a minute after the
     * start; either way it is due in minutes, not in an hour.
     */
    @Test
    void theClockIsReadAgainWithinMinutes() {
        Trigger reading = scheduler.getScheduledJobs().stream()
                .filter(job -> job.getMethodDescription().endsWith("StoreClock#readEveryMinute"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no scheduled reading of Redis's clock"));
        Instant next = reading.getNextFireTime();
        assertTrue(
                next.isBefore(Instant.now().plus(Duration.ofMinutes(2)).plusSeconds(1)),
                "the next reading of Redis's clock is due at " + next + ", more than two minutes from now");
    }
}
