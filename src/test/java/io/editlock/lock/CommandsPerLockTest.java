package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.catalog.Item;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §2: a decision costs the same whatever the number of items in the configurator. Counted
 * in Redis commands (INFO commandstats, which includes the commands run inside scripts) around one
 * acquire, in a configurator of 10 items and one of 10,000.
 */
@QuarkusTest
@TestProfile(CommandsPerLockTest.NoBackgroundWork.class)
class CommandsPerLockTest {

    /** The lease reaper runs every second on its own: its commands would pollute the counts. */
    public static class NoBackgroundWork implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.scheduler.enabled", "false");
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The measuring commands themselves, and the handshake of a connection the pool may open meanwhile. */
    private static final Set<String> NOT_COUNTED = Set.of("config", "info", "hello", "client", "select", "auth", "ping", "command");

    @Inject
    LockService locks;
    @Inject
    ConfiguratorStore store;
    @Inject
    ReactiveRedisDataSource redis;

    /**
     * Item count -> configurator, made once for both tests (10,000 items take a few seconds). Each
     * measurement unlocks again, so both configurators always have the same history.
     */
    private static final Map<Integer, Long> CONFIGURATORS = new HashMap<>();
    /** configuratorId -> the id of its last item, for the item page lock. */
    private static final Map<Long, Long> LAST_ITEM = new HashMap<>();

    @Test
    void aConfiguratorLockCostsTheSameWithTenOrTenThousandItems() {
        measureBoth("configurator lock", Resource::configurator);
    }

    @Test
    void anItemPageLockCostsTheSameWithTenOrTenThousandItems() {
        measureBoth("item page lock", configurator -> Resource.itemPage(LAST_ITEM.get(configurator), Page.DEPENDENCIES));
    }

    /** @param lockIn the resource to lock in the configurator with the given id */
    private void measureBoth(String what, LongFunction<Resource> lockIn) {
        // Warm-up: scripts cached (EVALSHA, no NOSCRIPT round) and pool connections open.
        acquireAndCount(lockIn.apply(configuratorWith(3)), Fixtures.user("Warm"));

        Map<String, Long> tenItems = acquireAndCount(lockIn.apply(configuratorWith(10)), Fixtures.user("Sara"));
        Map<String, Long> tenThousandItems = acquireAndCount(lockIn.apply(configuratorWith(10_000)), Fixtures.user("Omar"));

        assertTrue(sum(tenItems) > 0, "one " + what + " must cost some commands, counted none");
        assertEquals(sum(tenItems), sum(tenThousandItems), "one " + what + " must cost as many Redis commands with 10,000 items as with 10;"
                + " per command, 10 items: " + tenItems + ", 10,000 items: " + tenThousandItems);
        assertEquals(tenItems, tenThousandItems, "one " + what + " must run the same Redis commands with 10,000 items as with 10");
    }

    private long configuratorWith(int items) {
        return CONFIGURATORS.computeIfAbsent(items, n -> {
            long configurator = Fixtures.configurator(store);
            List<Optional<Item>> added = Multi.createFrom().range(0, n)
                    .onItem().transformToUni(i -> store.addItem(configurator, "item-" + i, null)).merge(64)
                    .collect().asList().await().atMost(WAIT);
            assertEquals((long) n, added.stream().filter(Optional::isPresent).count(), "every item must have been added");
            LAST_ITEM.put(configurator, added.stream().map(Optional::get).mapToLong(Item::id).max().orElseThrow());
            return configurator;
        });
    }

    private Map<String, Long> acquireAndCount(Resource resource, Holder holder) {
        redis.execute(Command.CONFIG, "RESETSTAT").await().atMost(WAIT);
        AcquireResult result = locks.acquire(resource, holder).await().atMost(WAIT);
        String stats = redis.execute(Command.INFO, "commandstats").await().atMost(WAIT).toString();
        assertInstanceOf(AcquireResult.Granted.class, result, resource + " must be granted, got " + result);
        assertInstanceOf(ReleaseResult.Released.class, locks.release(resource, holder.userId(), holder.socketId()).await().atMost(WAIT),
                "the measured lock must be released again");
        return calls(stats);
    }

    /** {@code cmdstat_hset:calls=2,usec=...} lines -> command -> calls, without what is not counted. */
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
            String fields = line.substring(line.indexOf(':') + 1);
            for (String field : fields.split(",")) {
                if (field.startsWith("calls=")) {
                    calls.put(command, Long.parseLong(field.substring("calls=".length())));
                }
            }
        }
        return calls;
    }

    private static long sum(Map<String, Long> calls) {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }
}
