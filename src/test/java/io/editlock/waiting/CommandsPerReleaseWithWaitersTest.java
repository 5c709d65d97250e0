package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.Holder;
import io.editlock.lock.LockService;
import io.editlock.lock.Page;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.editlock.redis.CommandCounter;
import io.editlock.redis.LockKeys;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §14: "a release with waiters costs the same whatever the length of the line". Counted
 * in Redis commands (INFO commandstats, which includes the commands run inside scripts) around the
 * release that hands the page to the head of a line of 5 and of a line of 500.
 */
@QuarkusTest
@TestProfile(CommandCounter.NoBackgroundWork.class)
class CommandsPerReleaseWithWaitersTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /**
     * The release that hands the page to the head of its line: release_lock's own work, the line's
     * (head, waiter record, whether its node still vouches for its socket, leaving it, the count), the
     * new grant and the waiting event.
     */
    private static final long PER_RELEASE = 18;

    @Inject
    LockService locks;

    @Inject
    WaitingScripts waiting;

    @Inject
    ConfiguratorStore store;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Test
    void aReleaseCostsTheSameWithFiveOrFiveHundredWaiters() {
        releaseToLineOf(3); // warm-up: scripts cached, pool connections open
        Map<String, Long> five = releaseToLineOf(5);
        Map<String, Long> fiveHundred = releaseToLineOf(500);
        assertEquals(
                five,
                fiveHundred,
                "the release that serves the head must run the same Redis commands with 500 waiters as with 5");
        assertEquals(
                PER_RELEASE,
                CommandCounter.total(five),
                "the release that serves the head must cost " + PER_RELEASE + " Redis commands: " + five);
    }

    private Map<String, Long> releaseToLineOf(int waiters) {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        Resource page = Resource.itemPage(item, Page.FILTERS).inConfigurator(c);
        Holder sara = Fixtures.user("Sara");
        assertInstanceOf(
                AcquireResult.Granted.class, locks.acquire(page, sara).await().atMost(WAIT));
        for (int i = 0; i < waiters; i++) {
            assertInstanceOf(
                    WaitReply.Queued.class,
                    waiting.waitFor(page, Fixtures.user("Waiter" + i), true, i + 1)
                            .await()
                            .atMost(WAIT));
        }
        Map<String, Long> calls = new CommandCounter(redis)
                .count(() -> assertInstanceOf(
                        ReleaseResult.Released.class,
                        locks.release(page, sara.userId(), sara.socketId())
                                .await()
                                .atMost(WAIT)));
        assertEquals(
                String.valueOf(waiters - 1),
                redis.hash(String.class)
                        .hget(keys.waiting(c).get(0), page.field())
                        .await()
                        .atMost(WAIT),
                "the head was served");
        return calls;
    }
}
