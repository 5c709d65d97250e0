package io.editlock.catalog;

import static io.editlock.support.Api.as;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.lock.Guard;
import io.editlock.redis.LockKeys;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Holding;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Deleting a configurator takes it away at once, whatever its size; the ids of its items and entries
 * then leave the global indexes in batches, and nothing of it is left in the store. A node that dies
 * between the delete and that cleanup leaves it to the others' sweep; a delete that was refused, or
 * never ran, leaves the configurator as it was.
 */
@QuarkusTest
class DeletedConfiguratorCleanupTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    CatalogScripts scripts;

    @Inject
    DeletedConfigurators deleted;

    /** A configurator with an item tree and an entry of every kind, and the ids it put in the indexes. */
    private record Filled(long configuratorId, Map<Entity, List<Long>> ids) {}

    @Test
    void aDeletedConfiguratorIsGoneAtOnceAndItsIdsLeaveTheIndexes() {
        TestUser sara = DemoLogin.user("Sara");
        Filled filled = fill(sara, 600);
        long c = filled.configuratorId();
        long item = filled.ids().get(Entity.ITEM).get(0);
        long filter = filled.ids().get(Entity.FILTER).get(0);

        as(sara).delete("/api/configurators/" + c).then().statusCode(204);

        as(sara).get("/api/configurators/" + c).then().statusCode(404);
        as(sara).get("/api/items/" + item).then().statusCode(404);
        as(sara).body("{\"expression\":\"x > 2\"}")
                .patch("/api/filters/" + filter)
                .then()
                .statusCode(404);
        await().atMost(WAIT).untilAsserted(() -> assertEquals(Map.of(), stillIndexed(filled)));
        await().atMost(WAIT).until(() -> !asked(c));
        assertEquals(List.of(), keysOf(c), "nothing of the configurator is left in the store");
    }

    @Test
    void whatANodeLeftWhenItDiedRightAfterADeleteIsCleanedUpByTheSweepOnceTheDeleteCannotBeRunning() {
        TestUser sara = DemoLogin.user("Sara");
        Filled filled = fill(sara, 3);
        long c = filled.configuratorId();

        // The node: the delete noted, its script run, and nothing after it.
        DeleteNotes.Asked asked = deleted.asked(c).await().atMost(WAIT);
        scripts.deleteConfigurator(Guard.none(c), true).await().atMost(WAIT);
        as(sara).get("/api/configurators/" + c).then().statusCode(404);

        deleted.sweep().await().atMost(WAIT);
        assertEquals(filled.ids(), indexedOf(filled), "a delete asked for a moment ago is its node's to clean up");

        ageing(asked);
        redis("ZADD", keys.deletedConfigurators(), "0", "not-a-note"); // settled first, and must not stop the sweep
        deleted.sweep().await().atMost(WAIT);
        assertEquals(null, redis("ZSCORE", keys.deletedConfigurators(), "not-a-note"));
        assertEquals(Map.of(), stillIndexed(filled));
        assertFalse(asked(c), "the delete is cleaned up");
        assertFalse(listed(c), "and out of the list of configurators");
        assertEquals(List.of(), keysOf(c));
    }

    @Test
    void aRefusedDeleteLeavesTheConfiguratorAsItWasAndADeleteThatNeverRanIsForgotten() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser tom = DemoLogin.user("Tom");
        Filled filled = fill(sara, 3);
        long c = filled.configuratorId();
        String tree = as(sara).get("/api/configurators/" + c).asString();

        try (Holding toms = Holding.connect(base, tom)) {
            toms.variables(c);
            as(sara).delete("/api/configurators/" + c).then().statusCode(423);
        }
        assertFalse(asked(c), "the script refused: nothing to clean up");

        // Its node died after noting the delete, before running it.
        ageing(deleted.asked(c).await().atMost(WAIT));
        deleted.sweep().await().atMost(WAIT);

        assertFalse(asked(c), "the delete that never ran is forgotten");
        assertEquals(tree, as(sara).get("/api/configurators/" + c).asString(), "the configurator is as it was");
        assertEquals(filled.ids(), indexedOf(filled), "every id is still indexed");
        assertTrue(listed(c));
    }

    /** As if the delete was asked for long ago: by now it has run, or never will. */
    private void ageing(DeleteNotes.Asked asked) {
        redis("ZADD", keys.deletedConfigurators(), "1", asked.member());
    }

    private boolean listed(long configuratorId) {
        return redis("ZSCORE", keys.configuratorIndex(), String.valueOf(configuratorId)) != null;
    }

    /** A configurator with {@code items} items in a tree, a filter, dependency and attribute value on each, one variable. */
    private static Filled fill(TestUser user, int items) {
        long c = Api.configurator(user);
        List<Long> itemIds = new ArrayList<>();
        Long parent = null;
        for (int i = 0; i < items; i++) {
            long item = Api.item(user, c, i % 10 == 0 ? null : parent);
            parent = i % 10 == 0 ? item : parent;
            itemIds.add(item);
        }
        Map<Entity, List<Long>> ids = new TreeMap<>();
        ids.put(Entity.ITEM, itemIds);
        List<Long> filters = new ArrayList<>();
        List<Long> dependencies = new ArrayList<>();
        List<Long> attributeValues = new ArrayList<>();
        for (int i = 0; i < Math.min(3, items); i++) {
            long item = itemIds.get(i);
            filters.add(Api.filter(user, item));
            dependencies.add(Api.dependency(user, item, itemIds.get((i + 1) % items)));
            attributeValues.add(Api.attributeValue(user, item));
        }
        ids.put(Entity.FILTER, filters);
        ids.put(Entity.DEPENDENCY, dependencies);
        ids.put(Entity.ATTRIBUTE_VALUE, attributeValues);
        ids.put(Entity.VARIABLE, List.of(Api.variable(user, c)));
        return new Filled(c, ids);
    }

    /** The ids of {@code filled} that an index still holds, by kind. */
    private Map<Entity, List<Long>> stillIndexed(Filled filled) {
        Map<Entity, List<Long>> indexed = indexedOf(filled);
        indexed.values().removeIf(List::isEmpty);
        return indexed;
    }

    private Map<Entity, List<Long>> indexedOf(Filled filled) {
        Map<Entity, List<Long>> indexed = new TreeMap<>();
        filled.ids().forEach((entity, ids) -> {
            String index = entity == Entity.ITEM ? keys.itemIndex() : keys.entryIndex(entity.wireName());
            indexed.put(
                    entity,
                    ids.stream()
                            .filter(id ->
                                    redis("HEXISTS", index, String.valueOf(id)).toLong() == 1)
                            .toList());
        });
        return indexed;
    }

    /** Whether a delete of the configurator is noted and not cleaned up. */
    private boolean asked(long configuratorId) {
        List<String> notes = new ArrayList<>();
        redis("ZRANGEBYSCORE", keys.deletedConfigurators(), "-inf", "+inf").forEach(note -> notes.add(note.toString()));
        return notes.stream().anyMatch(note -> note.startsWith(configuratorId + ":"));
    }

    /** Every key in the configurator's hash slot. */
    private List<String> keysOf(long configuratorId) {
        List<String> found = new ArrayList<>();
        String pattern = keys.configurator(configuratorId).replace(":configurator", ":*");
        String cursor = "0";
        do {
            Response page = redis("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = page.get(0).toString();
            page.get(1).forEach(key -> found.add(key.toString()));
        } while (!cursor.equals("0"));
        return found;
    }

    private Response redis(String command, String... args) {
        return redis.execute(Command.create(command), args).await().atMost(WAIT);
    }
}
