package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.Holder;
import io.editlock.lock.LockService;
import io.editlock.lock.Page;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §14: "a release with waiters costs the same whatever the length of the line". Counted
 * in Redis commands (INFO commandstats, which includes the commands run inside scripts) around the
 * release that hands the page to the head of a line of 5 and of a line of 500.
 */
@QuarkusTest
@TestProfile(CommandsPerReleaseWithWaitersTest.NoBackgroundWork.class)
class CommandsPerReleaseWithWaitersTest {

    /** The reaper and sweeps run every second on their own: their commands would pollute the counts. */
    public static class NoBackgroundWork implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.scheduler.enabled", "false");
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Set<String> NOT_COUNTED = Set.of("config", "info", "hello", "client", "select", "auth", "ping", "command");

    @Inject
    LockService locks;
    @Inject
    WaitingScripts waiting;
    @Inject
    ConfiguratorStore store;
    @Inject
    ReactiveRedisDataSource redis;
    @Inject
    io.editlock.redis.LockKeys keys;

    @Test
    void aReleaseCostsTheSameWithFiveOrFiveHundredWaiters() {
        releaseToLineOf(3); // warm-up: scripts cached, pool connections open
        Map<String, Long> five = releaseToLineOf(5);
        Map<String, Long> fiveHundred = releaseToLineOf(500);
        assertTrue(five.values().stream().mapToLong(Long::longValue).sum() > 0);
        assertEquals(five, fiveHundred, "the release that serves the head must run the same Redis commands with 500 waiters as with 5");
    }

    private Map<String, Long> releaseToLineOf(int waiters) {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        Resource page = Resource.itemPage(item, Page.FILTERS).inConfigurator(c);
        Holder sara = Fixtures.user("Sara");
        assertInstanceOf(AcquireResult.Granted.class, locks.acquire(page, sara).await().atMost(WAIT));
        for (int i = 0; i < waiters; i++) {
            assertInstanceOf(WaitReply.Queued.class, waiting.waitFor(page, Fixtures.user("Waiter" + i)).await().atMost(WAIT));
        }
        redis.execute(Command.CONFIG, "RESETSTAT").await().atMost(WAIT);
        ReleaseResult released = locks.release(page, sara.userId(), sara.socketId()).await().atMost(WAIT);
        String stats = redis.execute(Command.INFO, "commandstats").await().atMost(WAIT).toString();
        assertInstanceOf(ReleaseResult.Released.class, released);
        assertEquals(String.valueOf(waiters - 1), redis.hash(String.class).hget(keys.waiting(c).get(0), page.field())
                .await().atMost(WAIT), "the head was served");
        return calls(stats);
    }

    private static Map<String, Long> calls(String commandstats) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : commandstats.split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String command = line.substring("cmdstat_".length(), line.indexOf(':'));
            if (NOT_COUNTED.contains(command.split("\\|")[0])) {
                continue;
            }
            for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                if (field.startsWith("calls=")) {
                    calls.put(command, Long.parseLong(field.substring("calls=".length())));
                }
            }
        }
        return calls;
    }
}
