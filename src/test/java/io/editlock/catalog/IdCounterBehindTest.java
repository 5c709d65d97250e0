package io.editlock.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.lock.Guard;
import io.editlock.redis.LockKeys;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/operations.md: an id counter that went back below ids in use (the store lost part of its data)
 * never hands a create an id that exists: the create takes the next free one, and the records of the
 * ids in use stay as they were. The counters are set back by hand, as such a loss leaves them.
 */
@QuarkusTest
class IdCounterBehindTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    /** Ids in use past the counter: about ten looks to walk past them. */
    private static final int IN_USE = 1000;

    @Inject
    ConfiguratorStore store;

    @Inject
    EntryStore entries;

    @Inject
    CatalogScripts catalogScripts;

    @Inject
    LockKeys keys;

    @Inject
    ReactiveRedisDataSource redis;

    @Test
    void aCreateSkipsTheIdsInUseAndLeavesTheirRecordsAsTheyWere() {
        long c = Fixtures.configurator(store);
        String name = store.configurator(c).await().atMost(WAIT).name();
        long item = Fixtures.item(store, c);
        long filter = Fixtures.entry(entries, Entity.FILTER, c, item, Map.of("expression", "x > 1"));
        setBack(Entity.CONFIGURATOR, c);
        setBack(Entity.ITEM, item);
        setBack(Entity.FILTER, filter);

        long newConfigurator = Fixtures.configurator(store);
        long newItem = Fixtures.item(store, newConfigurator);
        long newFilter =
                Fixtures.entry(entries, Entity.FILTER, newConfigurator, newItem, Map.of("expression", "y < 2"));

        assertTrue(newConfigurator > c, newConfigurator + " after " + c);
        assertTrue(newItem > item, newItem + " after " + item);
        assertTrue(newFilter > filter, newFilter + " after " + filter);
        assertEquals(name, store.configurator(c).await().atMost(WAIT).name(), "the configurator in use kept its name");
        assertEquals(c, store.item(item).await().atMost(WAIT).configuratorId(), "the item in use is where it was");
        Entry.Filter kept =
                (Entry.Filter) entries.find(Entity.FILTER, filter).await().atMost(WAIT);
        assertEquals("x > 1", kept.expression(), "the filter in use kept its expression");
        assertFalse(
                entries.find(Entity.FILTER, newFilter).await().atMost(WAIT).equals(kept), "the new filter is its own");
    }

    /** A counter far below the ids in use is walked past them in steps that double: the create gets a free id. */
    @Test
    void aCounterFarBehindIsWalkedPastTheIdsInUse() {
        long c = Fixtures.configurator(store);
        // Ids in use just above the counter, as the suite's other tests read ids within an int.
        long base = Long.parseLong(redis.execute(Command.GET, keys.sequence(Entity.ITEM.wireName()))
                        .await()
                        .atMost(WAIT)
                        .toString())
                + 10;
        List<String> phantoms = new ArrayList<>();
        phantoms.add(keys.itemIndex());
        for (long id = base + 1; id <= base + IN_USE; id++) {
            phantoms.add(String.valueOf(id));
            phantoms.add(String.valueOf(c));
        }
        redis.execute(Command.HSET, phantoms.toArray(String[]::new)).await().atMost(WAIT);
        try {
            redis.execute(Command.SET, keys.sequence(Entity.ITEM.wireName()), String.valueOf(base))
                    .await()
                    .atMost(WAIT);

            long item = Fixtures.item(store, c);

            assertTrue(item > base + IN_USE, item + " is past the ids in use");
            assertEquals(c, store.item(item).await().atMost(WAIT).configuratorId());
        } finally {
            List<String> ids = new ArrayList<>();
            ids.add(keys.itemIndex());
            for (int i = 1; i < phantoms.size(); i += 2) {
                ids.add(phantoms.get(i));
            }
            redis.execute(Command.HDEL, ids.toArray(String[]::new)).await().atMost(WAIT);
        }
    }

    /**
     * A deleted configurator leaves the list at once, and waits for its cleanup, empty or not: its id is
     * not handed out meanwhile, or the cleanup would take the new configurator's id off the list.
     */
    @ParameterizedTest(name = "with an item: {0}")
    @ValueSource(booleans = {true, false})
    void theIdOfADeletedConfiguratorWaitingForItsCleanupIsSkipped(boolean withAnItem) {
        long deleted = Fixtures.configurator(store);
        Long item = withAnItem ? Fixtures.item(store, deleted) : null;
        catalogScripts.deleteConfigurator(Guard.none(deleted), true).await().atMost(WAIT);
        redis.execute(Command.ZREM, keys.configuratorIndex(), String.valueOf(deleted))
                .await()
                .atMost(WAIT);
        try {
            setBack(Entity.CONFIGURATOR, deleted);

            assertTrue(Fixtures.configurator(store) > deleted, "the deleted configurator's id is skipped");
        } finally {
            List<String> left = new ArrayList<>();
            left.add(keys.deletedConfigurator(deleted));
            DeletedConfigurators.SET_ASIDE.forEach(
                    entity -> left.add(keys.deletedRecords(deleted, entity.collection())));
            redis.execute(Command.DEL, left.toArray(String[]::new)).await().atMost(WAIT);
            if (item != null) {
                redis.execute(Command.HDEL, keys.itemIndex(), String.valueOf(item))
                        .await()
                        .atMost(WAIT);
            }
        }
    }

    /** The counter as a store that lost its last writes leaves it: the id in use is the next it hands out. */
    private void setBack(Entity entity, long inUse) {
        redis.execute(Command.SET, keys.sequence(entity.wireName()), String.valueOf(inUse - 1))
                .await()
                .atMost(WAIT);
    }
}
