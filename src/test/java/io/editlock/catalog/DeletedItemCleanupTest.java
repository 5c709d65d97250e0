package io.editlock.catalog;

import static io.editlock.support.Api.as;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Guard;
import io.editlock.lock.GuardType;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.Holding;
import io.editlock.support.ScriptHooks;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Deleting an item takes its sub-tree and their entries away at once, at a cost that does not grow
 * with the entries: their records and every id in the global indexes go afterwards, in batches. In
 * between, an entry of a deleted item is gone for every read and write. A node that dies between the
 * delete and the cleanup leaves it to the others' sweep; a refused delete leaves everything as it was.
 */
@QuarkusTest
class DeletedItemCleanupTest {

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
    DeletedItems deletedItems;

    @Inject
    ConfiguratorStore store;

    @Inject
    PipelinedRedis pipelined;

    @Inject
    EntryStore entries;

    /** A configurator with a top item whose sub-tree has entries of every kind, and an item beside it. */
    private record Tree(
            long configuratorId, long top, Map<Entity, List<Long>> subtree, Map<Entity, List<Long>> beside) {}

    @Test
    void aDeletedItemIsGoneAtOnceWithItsSubtreeAndItsIdsLeaveTheIndexes() {
        TestUser sara = DemoLogin.user("Sara");
        Tree tree = grow(sara);

        as(sara).delete("/api/items/" + tree.top()).then().statusCode(204);

        assertAllGone(sara, tree);
        await().atMost(WAIT).untilAsserted(() -> assertEquals(Map.of(), stillIndexed(tree.subtree())));
        await().atMost(WAIT).until(() -> !asked(tree.configuratorId()));
        assertEquals(Map.of(), stillStored(tree), "the entries' records are gone too");
        assertEquals(List.of(), pageListsOf(tree), "and their pages' lists");
        assertFalse(setAside(tree.configuratorId()), "nothing is left set aside");
        assertBesideAsItWas(sara, tree);
    }

    /** More items than one batch takes, more entries of one kind than one command takes: all of them go. */
    @Test
    void aSubtreeLargerThanABatchIsCleanedUpWhole() {
        TestUser sara = DemoLogin.user("Sara");
        long c = Fixtures.configurator(store, sara.id());
        long top = Fixtures.item(store, c, null);
        List<Long> items = new ArrayList<>(List.of(top));
        List<Long> filters = new ArrayList<>();
        for (int i = 0; i < 59; i++) {
            items.add(Fixtures.item(store, c, i % 2 == 0 ? top : items.get(items.size() - 1)));
        }
        for (long item : items) { // 720 filters, 600 of them on the first 50 items
            for (int i = 0; i < 12; i++) {
                filters.add(Fixtures.entry(entries, Entity.FILTER, c, item, Map.of("expression", "x > " + i)));
            }
        }
        Map<Entity, List<Long>> subtree = new TreeMap<>(Map.of(Entity.ITEM, items, Entity.FILTER, filters));

        as(sara).delete("/api/items/" + top).then().statusCode(204);

        await().atMost(WAIT).until(() -> !asked(c));
        assertEquals(Map.of(), stillIndexed(subtree));
        assertEquals(
                List.of(),
                filters.stream()
                        .filter(id -> hexists(keys.entries(c, Entity.FILTER.collection()), id))
                        .toList());
        assertEquals(0, redis("HLEN", keys.itemEntries(c)).toLong(), "no page's list is left");
        assertFalse(setAside(c));
    }

    @Test
    void whatANodeLeftWhenItDiedRightAfterADeleteIsGoneForEveryReadAndCleanedUpByTheSweep() {
        TestUser sara = DemoLogin.user("Sara");
        Tree tree = grow(sara);
        long c = tree.configuratorId();

        DeleteNotes.Asked asked = deletedByANodeThatDied(tree);

        assertEquals(entriesOf(tree), stillStored(tree), "the entries' records wait for the cleanup");
        assertAllGone(sara, tree);

        deletedItems.sweep().await().atMost(WAIT);
        assertEquals(tree.subtree(), indexedOf(tree.subtree()), "a delete asked for a moment ago is its node's");

        redis("ZADD", keys.deletedItems(), "1", asked.member()); // as if asked long ago: it ran, or never will
        redis("ZADD", keys.deletedItems(), "0", "not-a-note"); // settled first, and must not stop the sweep
        deletedItems.sweep().await().atMost(WAIT);

        assertEquals(null, redis("ZSCORE", keys.deletedItems(), "not-a-note"));
        assertEquals(Map.of(), stillIndexed(tree.subtree()));
        assertEquals(Map.of(), stillStored(tree));
        assertEquals(List.of(), pageListsOf(tree));
        assertFalse(asked(c), "the delete is cleaned up");
        assertFalse(setAside(c));
        assertBesideAsItWas(sara, tree);
    }

    /**
     * The crash window through the REST path: the delete is noted before its script runs, and a node
     * that fails right after the script (here: the store's answer lost) leaves the cleanup to the sweep.
     */
    @Test
    void aDeleteWhoseNodeFailsRightAfterItsScriptIsNotedAndLeftToTheSweep() {
        TestUser sara = DemoLogin.user("Sara");
        Tree tree = grow(sara);
        long c = tree.configuratorId();
        AtomicReference<String> notedWhileItRan = new AtomicReference<>();
        ScriptHooks.install(pipelined)
                .afterNext(
                        "delete_item",
                        () -> redis.execute(Command.ZRANGEBYSCORE, keys.deletedItems(), "-inf", "+inf")
                                .invoke(notes -> notes.forEach(note -> {
                                    if (note.toString().startsWith(c + ":")) {
                                        notedWhileItRan.set(note.toString());
                                    }
                                }))
                                .chain(() -> Uni.createFrom()
                                        .failure(LockStoreUnavailableException.of(
                                                new IOException("the store's answer was lost")))));

        as(sara).delete("/api/items/" + tree.top()).then().statusCode(503);

        assertTrue(notedWhileItRan.get() != null, "the delete was noted before its script ran");
        assertAllGone(sara, tree);
        assertTrue(asked(c), "nobody cleaned up: the note stays for the sweep");
        redis("ZADD", keys.deletedItems(), "1", notedWhileItRan.get());
        deletedItems.sweep().await().atMost(WAIT);
        assertFalse(asked(c));
        assertEquals(Map.of(), stillIndexed(tree.subtree()));
        assertEquals(Map.of(), stillStored(tree));
    }

    @Test
    void anItemLeftToTheSweepAndThenItsConfiguratorDeletedLeaveNothingBehind() {
        TestUser sara = DemoLogin.user("Sara");
        Tree tree = grow(sara);
        long c = tree.configuratorId();
        DeleteNotes.Asked asked = deletedByANodeThatDied(tree);

        as(sara).delete("/api/configurators/" + c).then().statusCode(204);
        redis("ZADD", keys.deletedItems(), "1", asked.member());
        deletedItems.sweep().await().atMost(WAIT);

        await().atMost(WAIT).untilAsserted(() -> assertEquals(Map.of(), stillIndexed(tree.subtree())));
        await().atMost(WAIT).untilAsserted(() -> assertEquals(Map.of(), stillIndexed(tree.beside())));
        assertFalse(asked(c));
        await().atMost(WAIT).untilAsserted(() -> assertEquals(List.of(), keysOf(c), "nothing of it is left"));
    }

    /** docs/operations.md: a cleanup that keeps failing is counted until it succeeds, and stops no other. */
    @Test
    void aCleanupThatKeepsFailingIsCountedUntilItIsDone() {
        TestUser sara = DemoLogin.user("Sara");
        Tree tree = grow(sara);
        long c = tree.configuratorId();
        DeleteNotes.Asked asked = deletedByANodeThatDied(tree);
        String unreadable = "0:items";
        redis("HSET", keys.deletedSubtrees(c), unreadable, "not a list"); // a list no cleanup can read
        redis("ZADD", keys.deletedItems(), "1", asked.member());

        deletedItems.sweep().await().atMost(WAIT);
        assertEquals(1.0, failingCleanups("item"));
        assertTrue(asked(c), "its note stays for the next sweep");

        redis("HDEL", keys.deletedSubtrees(c), unreadable);
        deletedItems.sweep().await().atMost(WAIT);
        assertEquals(0.0, failingCleanups("item"));
        assertFalse(asked(c));
        assertEquals(Map.of(), stillIndexed(tree.subtree()));
    }

    @Test
    void aRefusedDeleteLeavesEverythingAsItWasAndNothingToCleanUp() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser tom = DemoLogin.user("Tom");
        Tree tree = grow(sara);
        long c = tree.configuratorId();
        long deepest = tree.subtree()
                .get(Entity.ITEM)
                .get(tree.subtree().get(Entity.ITEM).size() - 1);
        String before = as(sara).get("/api/configurators/" + c).asString();

        try (Holding toms = Holding.connect(base, tom)) {
            toms.page(deepest, "filters");
            as(sara).delete("/api/items/" + tree.top()).then().statusCode(423);
        }

        assertFalse(asked(c), "the script refused: nothing to clean up");
        assertFalse(setAside(c));
        assertEquals(before, as(sara).get("/api/configurators/" + c).asString());
        assertEquals(tree.subtree(), indexedOf(tree.subtree()));
    }

    /** What a node does before it dies: the delete noted, its script run, and nothing after it. */
    private DeleteNotes.Asked deletedByANodeThatDied(Tree tree) {
        long c = tree.configuratorId();
        DeleteNotes.Asked asked = deletedItems.asked(c).await().atMost(WAIT);
        scripts.deleteItem(new Guard(GuardType.NONE, c, tree.top(), null, "", OptionalLong.empty()))
                .await()
                .atMost(WAIT);
        return asked;
    }

    /** The top item, its sub-tree, their entries: 404 to every read and write, and out of the tree. */
    private static void assertAllGone(TestUser sara, Tree tree) {
        tree.subtree()
                .get(Entity.ITEM)
                .forEach(item -> as(sara).get("/api/items/" + item).then().statusCode(404));
        long filter = tree.subtree().get(Entity.FILTER).get(1);
        as(sara).get("/api/filters/" + filter).then().statusCode(404);
        as(sara).body("{\"expression\":\"x > 2\"}")
                .patch("/api/filters/" + filter)
                .then()
                .statusCode(404);
        as(sara).delete("/api/filters/" + filter).then().statusCode(404);
        long dependency = tree.subtree().get(Entity.DEPENDENCY).get(0);
        as(sara).get("/api/dependencies/" + dependency).then().statusCode(404);
        long attributeValue = tree.subtree().get(Entity.ATTRIBUTE_VALUE).get(0);
        as(sara).delete("/api/attribute-values/" + attributeValue).then().statusCode(404);
        Map<Entity, List<Long>> shown = shown(as(sara).get("/api/configurators/" + tree.configuratorId())
                .as(JsonNode.class)
                .path("items"));
        shown.replaceAll((kind, ids) ->
                ids.stream().filter(tree.subtree().get(kind)::contains).toList());
        shown.values().removeIf(List::isEmpty);
        assertEquals(Map.of(), shown, "the configurator shows nothing of the sub-tree");
    }

    /** The ids of the items and entries a configurator's tree shows, by kind. */
    private static Map<Entity, List<Long>> shown(JsonNode items) {
        Map<Entity, List<Long>> shown = new TreeMap<>();
        for (Entity kind : List.of(Entity.ITEM, Entity.FILTER, Entity.DEPENDENCY, Entity.ATTRIBUTE_VALUE)) {
            shown.put(kind, new ArrayList<>());
        }
        items.forEach(item -> {
            shown.get(Entity.ITEM).add(item.path("id").asLong());
            item.path("filters")
                    .forEach(entry ->
                            shown.get(Entity.FILTER).add(entry.path("id").asLong()));
            item.path("dependencies")
                    .forEach(entry ->
                            shown.get(Entity.DEPENDENCY).add(entry.path("id").asLong()));
            item.path("attributeValues")
                    .forEach(entry -> shown.get(Entity.ATTRIBUTE_VALUE)
                            .add(entry.path("id").asLong()));
            shown(item.path("children")).forEach((kind, ids) -> shown.get(kind).addAll(ids));
        });
        return shown;
    }

    private void assertBesideAsItWas(TestUser sara, Tree tree) {
        assertEquals(tree.beside(), indexedOf(tree.beside()), "the item beside keeps its ids");
        as(sara).get("/api/items/" + tree.beside().get(Entity.ITEM).get(0))
                .then()
                .statusCode(200);
        long filter = tree.beside().get(Entity.FILTER).get(0);
        as(sara).get("/api/filters/" + filter).then().statusCode(200);
    }

    private static Tree grow(TestUser user) {
        long c = Api.configurator(user);
        long top = Api.item(user, c, null);
        long child = Api.item(user, c, top);
        long grandchild = Api.item(user, c, child);
        long sibling = Api.item(user, c, top);
        List<Long> items = List.of(top, child, grandchild, sibling);
        Map<Entity, List<Long>> subtree = new TreeMap<>();
        subtree.put(Entity.ITEM, items);
        subtree.put(Entity.FILTER, new ArrayList<>());
        subtree.put(Entity.DEPENDENCY, new ArrayList<>());
        subtree.put(Entity.ATTRIBUTE_VALUE, new ArrayList<>());
        for (long item : items) {
            subtree.get(Entity.FILTER).add(Api.filter(user, item));
            subtree.get(Entity.FILTER).add(Api.filter(user, item));
            subtree.get(Entity.DEPENDENCY).add(Api.dependency(user, item, top));
            subtree.get(Entity.ATTRIBUTE_VALUE).add(Api.attributeValue(user, item));
        }
        long other = Api.item(user, c, null);
        Map<Entity, List<Long>> beside = new TreeMap<>();
        beside.put(Entity.ITEM, List.of(other));
        beside.put(Entity.FILTER, List.of(Api.filter(user, other)));
        beside.put(Entity.DEPENDENCY, List.of(Api.dependency(user, other, top)));
        beside.put(Entity.ATTRIBUTE_VALUE, List.of(Api.attributeValue(user, other)));
        return new Tree(c, top, subtree, beside);
    }

    /** The ids that an index still holds, by kind; kinds with none left out. */
    private Map<Entity, List<Long>> stillIndexed(Map<Entity, List<Long>> ids) {
        Map<Entity, List<Long>> indexed = indexedOf(ids);
        indexed.values().removeIf(List::isEmpty);
        return indexed;
    }

    private Map<Entity, List<Long>> indexedOf(Map<Entity, List<Long>> ids) {
        Map<Entity, List<Long>> indexed = new TreeMap<>();
        ids.forEach((entity, kind) -> {
            String index = entity == Entity.ITEM ? keys.itemIndex() : keys.entryIndex(entity.wireName());
            indexed.put(entity, kind.stream().filter(id -> hexists(index, id)).toList());
        });
        return indexed;
    }

    /** The sub-tree's entries whose records are still in the configurator's entry hashes, by kind. */
    private Map<Entity, List<Long>> stillStored(Tree tree) {
        Map<Entity, List<Long>> stored = new TreeMap<>();
        tree.subtree().forEach((entity, ids) -> {
            if (entity != Entity.ITEM) {
                String hash = keys.entries(tree.configuratorId(), entity.collection());
                List<Long> found = ids.stream().filter(id -> hexists(hash, id)).toList();
                if (!found.isEmpty()) {
                    stored.put(entity, found);
                }
            }
        });
        return stored;
    }

    /** The entries of the sub-tree, by kind. */
    private static Map<Entity, List<Long>> entriesOf(Tree tree) {
        Map<Entity, List<Long>> entries = new TreeMap<>(tree.subtree());
        entries.remove(Entity.ITEM);
        return entries;
    }

    /** The fields of the item-entries hash that list a page of the sub-tree. */
    private List<String> pageListsOf(Tree tree) {
        List<String> lists = new ArrayList<>();
        redis("HKEYS", keys.itemEntries(tree.configuratorId())).forEach(field -> lists.add(field.toString()));
        return lists.stream()
                .filter(field -> tree.subtree()
                        .get(Entity.ITEM)
                        .contains(Long.parseLong(field.substring(0, field.indexOf(':')))))
                .toList();
    }

    private boolean hexists(String key, long id) {
        return redis("HEXISTS", key, String.valueOf(id)).toLong() == 1;
    }

    /** Whether a delete of an item in the configurator is noted and not cleaned up. */
    private boolean asked(long configuratorId) {
        List<String> notes = new ArrayList<>();
        redis("ZRANGEBYSCORE", keys.deletedItems(), "-inf", "+inf").forEach(note -> notes.add(note.toString()));
        return notes.stream().anyMatch(note -> note.startsWith(configuratorId + ":"));
    }

    private boolean setAside(long configuratorId) {
        return redis("EXISTS", keys.deletedSubtrees(configuratorId)).toLong() == 1;
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

    private static double failingCleanups(String kind) {
        String series = "editlock_delete_cleanups_failing{kind=\"" + kind + "\"";
        return RestAssured.get("/q/metrics")
                .asString()
                .lines()
                .filter(line -> line.startsWith(series))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + series + "} in /q/metrics"));
    }

    private Response redis(String command, String... args) {
        return redis.execute(Command.create(command), args).await().atMost(WAIT);
    }
}
