package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.catalog.Item;
import io.editlock.redis.CommandCounter;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Multi;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §2: a decision costs the same whatever the number of items in the configurator,
 * and a lock costs few Redis commands. Counted in Redis commands (INFO commandstats, which includes
 * the commands run inside scripts) around one acquire and one release by a socket that has locked
 * before (as an editor does, again and again), in a configurator of 10 items and one of 10,000.
 */
@QuarkusTest
@TestProfile(CommandCounter.NoBackgroundWork.class)
class CommandsPerLockTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** A configurator lock: EVALSHA, TIME, HGETALL, one HSET, PUBLISH, and the user's configurator record (SET). */
    private static final long PER_CONFIGURATOR_LOCK = 6;
    /**
     * An item page lock: EVALSHA, TIME, HGETALL, the item's existence (HEXISTS), one HSET, PUBLISH,
     * and before the script the item's configurator (HGET of the catalog's index).
     */
    private static final long PER_ITEM_PAGE_LOCK = 7;
    /** An unlock: EVALSHA, TIME, HGETALL, HDEL, PUBLISH (and the item's configurator for an item page). */
    private static final long PER_CONFIGURATOR_UNLOCK = 5;

    private static final long PER_ITEM_PAGE_UNLOCK = 6;

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
        measureBoth("configurator lock", Resource::configurator, PER_CONFIGURATOR_LOCK, PER_CONFIGURATOR_UNLOCK);
    }

    @Test
    void anItemPageLockCostsTheSameWithTenOrTenThousandItems() {
        measureBoth(
                "item page lock",
                configurator -> Resource.itemPage(LAST_ITEM.get(configurator), Page.DEPENDENCIES),
                PER_ITEM_PAGE_LOCK,
                PER_ITEM_PAGE_UNLOCK);
    }

    /**
     * @param lockIn the resource to lock in the configurator with the given id
     * @param budget what one lock costs, and @param unlockBudget its unlock; a change that makes
     *     them cost more must say so here
     */
    private void measureBoth(String what, LongFunction<Resource> lockIn, long budget, long unlockBudget) {
        // Warm-up: scripts cached (EVALSHA, no NOSCRIPT round) and connections open.
        lockAndUnlock(lockIn.apply(configuratorWith(3)), Fixtures.user("Warm"));

        Cost tenItems = lockAndUnlock(lockIn.apply(configuratorWith(10)), Fixtures.user("Sara"));
        Cost tenThousandItems = lockAndUnlock(lockIn.apply(configuratorWith(10_000)), Fixtures.user("Omar"));

        assertEquals(
                tenItems.lock(),
                tenThousandItems.lock(),
                "one " + what + " must run the same Redis commands with 10,000 items as with 10");
        assertEquals(
                tenItems.unlock(),
                tenThousandItems.unlock(),
                "its unlock must run the same Redis commands with 10,000 items as with 10");
        assertEquals(
                budget,
                CommandCounter.total(tenItems.lock()),
                "one " + what + " must cost " + budget + " Redis commands: " + tenItems.lock());
        assertEquals(
                unlockBudget,
                CommandCounter.total(tenItems.unlock()),
                "its unlock must cost " + unlockBudget + " Redis commands: " + tenItems.unlock());
        assertEquals(1, tenItems.lock().get("time"), "one TIME per decision: " + tenItems.lock());
    }

    private long configuratorWith(int items) {
        return CONFIGURATORS.computeIfAbsent(items, n -> {
            long configurator = Fixtures.configurator(store);
            List<Optional<Item>> added = Multi.createFrom()
                    .range(0, n)
                    .onItem()
                    .transformToUni(i -> store.addItem(configurator, "item-" + i, null))
                    .merge(64)
                    .collect()
                    .asList()
                    .await()
                    .atMost(WAIT);
            assertEquals(
                    (long) n, added.stream().filter(Optional::isPresent).count(), "every item must have been added");
            LAST_ITEM.put(
                    configurator,
                    added.stream().map(Optional::get).mapToLong(Item::id).max().orElseThrow());
            return configurator;
        });
    }

    private record Cost(Map<String, Long> lock, Map<String, Long> unlock) {}

    /** Locks and unlocks once unmeasured (as the editor did before), then once measured. */
    private Cost lockAndUnlock(Resource resource, Holder holder) {
        acquire(resource, holder);
        release(resource, holder);
        CommandCounter counter = new CommandCounter(redis);
        Map<String, Long> lock = counter.count(() -> acquire(resource, holder));
        Map<String, Long> unlock = counter.count(() -> release(resource, holder));
        return new Cost(lock, unlock);
    }

    private void acquire(Resource resource, Holder holder) {
        AcquireResult result = locks.acquire(resource, holder).await().atMost(WAIT);
        assertInstanceOf(AcquireResult.Granted.class, result, resource + " must be granted, got " + result);
    }

    private void release(Resource resource, Holder holder) {
        assertInstanceOf(
                ReleaseResult.Released.class,
                locks.release(resource, holder.userId(), holder.socketId())
                        .await()
                        .atMost(WAIT),
                "the lock must be released again");
    }
}
