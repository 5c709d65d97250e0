package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.editlock.catalog.Entity;
import io.editlock.redis.LockKeys;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §8: a keyed create retried after what it created was deleted, or the place it was
 * created in, gets the first answer again, and creates nothing again: no index entry, no record, no
 * place in a list of its page or parent.
 */
@QuarkusTest
class KeyedRetryAfterDeleteTest {

    private static final String KEY = "Idempotency-Key";

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    /** What the first request under the key created, where, and what it sent and got. */
    private record Created(
            Entity entity, long configuratorId, Long itemId, long id, String route, String body, Response first) {}

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "configurator                        | 201",
                "item                                | 201",
                "filter                              | 201",
                "dependency                          | 201",
                "attribute-value                     | 201",
                "variable                            | 201",
                "item, gone with its parent          | 201",
                // the route names a place that is gone: the first answer all the same
                "filter, gone with its item          | 201",
                "filter, gone with its configurator  | 201",
                "item, gone with its configurator    | 201",
                "variable, gone with its configurator| 201"
            })
    void aRetryAfterTheDeleteCreatesNothingAgain(String scenario, int status) {
        TestUser sara = DemoLogin.user("Sara");
        String key = UUID.randomUUID().toString();
        Created created = createAndDelete(sara, key, scenario);
        // What a configurator's delete took along leaves the indexes in the background.
        Awaitility.await().until(() -> !indexed(created.entity(), created.id()));

        Response retry = as(sara).header(KEY, key).body(created.body()).post(created.route());

        assertEquals(status, retry.statusCode(), scenario + ": " + retry.asString());
        if (status == 201) {
            assertEquals(created.first().header("Location"), retry.header("Location"), scenario);
            assertEquals(created.first().asString(), retry.asString(), scenario + ": the first answer again");
            assertEquals(created.first().contentType(), retry.contentType(), scenario + ": its Content-Type too");
            as(sara).get(retry.header("Location")).then().statusCode(404);
        }
        assertFalse(indexed(created.entity(), created.id()), scenario + ": the retry put an index entry back");
        assertFalse(stored(created), scenario + ": the retry wrote the deleted entity again");
        assertFalse(listed(created), scenario + ": the retry listed the deleted entity again");
    }

    private Created createAndDelete(TestUser sara, String key, String scenario) {
        if (scenario.equals("configurator")) {
            String route = "/api/configurators";
            String body = "{\"name\":\"Bike\"}";
            Response first = keyed(sara, key, route, body);
            long c = first.jsonPath().getLong("id");
            as(sara).delete("/api/configurators/" + c).then().statusCode(204);
            return new Created(Entity.CONFIGURATOR, c, null, c, route, body, first);
        }
        long c = Api.configurator(sara);
        long parent = Api.item(sara, c, null);
        if (scenario.startsWith("item")) {
            String route = "/api/configurators/" + c + "/items";
            String body = "{\"name\":\"Frame\",\"parentItemId\":" + parent + "}";
            Response first = keyed(sara, key, route, body);
            long id = first.jsonPath().getLong("id");
            String delete = scenario.endsWith("parent")
                    ? "/api/items/" + parent
                    : scenario.endsWith("configurator") ? "/api/configurators/" + c : "/api/items/" + id;
            as(sara).delete(delete).then().statusCode(204);
            return new Created(Entity.ITEM, c, parent, id, route, body, first);
        }
        if (scenario.startsWith("variable")) {
            String route = "/api/configurators/" + c + "/variables";
            String body = "{\"name\":\"total\",\"formula\":\"a\"}";
            Response first = keyed(sara, key, route, body);
            long id = first.jsonPath().getLong("id");
            as(sara).delete(scenario.endsWith("configurator") ? "/api/configurators/" + c : "/api/variables/" + id)
                    .then()
                    .statusCode(204);
            return new Created(Entity.VARIABLE, c, null, id, route, body, first);
        }
        Entity entity = switch (scenario) {
            case "dependency" -> Entity.DEPENDENCY;
            case "attribute-value" -> Entity.ATTRIBUTE_VALUE;
            default -> Entity.FILTER;
        };
        String body = switch (entity) {
            case DEPENDENCY -> "{\"targetItemId\":" + parent + ",\"effect\":\"hide\"}";
            case ATTRIBUTE_VALUE -> "{\"name\":\"weight\",\"value\":\"12kg\"}";
            default -> "{\"expression\":\"x > 1\"}";
        };
        String route = "/api/items/" + parent + "/" + entity.collection();
        Response first = keyed(sara, key, route, body);
        long id = first.jsonPath().getLong("id");
        String delete = scenario.endsWith("configurator")
                ? "/api/configurators/" + c
                : scenario.endsWith("item") ? "/api/items/" + parent : "/api/" + entity.collection() + "/" + id;
        as(sara).delete(delete).then().statusCode(204);
        return new Created(entity, c, parent, id, route, body, first);
    }

    private static Response keyed(TestUser user, String key, String route, String body) {
        Response first = as(user).header(KEY, key).body(body).post(route);
        first.then().statusCode(201);
        return first;
    }

    private boolean indexed(Entity entity, long id) {
        return switch (entity) {
            case CONFIGURATOR ->
                redis.execute(Command.ZSCORE, keys.configuratorIndex(), String.valueOf(id))
                                .await()
                                .atMost(Duration.ofSeconds(5))
                        != null;
            case ITEM -> redis(Command.HEXISTS, keys.itemIndex(), String.valueOf(id));
            default -> redis(Command.HEXISTS, keys.entryIndex(entity.wireName()), String.valueOf(id));
        };
    }

    private boolean stored(Created created) {
        long c = created.configuratorId();
        String id = String.valueOf(created.id());
        return switch (created.entity()) {
            case CONFIGURATOR -> redis(Command.EXISTS, keys.configurator(c));
            case ITEM -> redis(Command.HEXISTS, keys.items(c), id);
            default -> redis(Command.HEXISTS, keys.entries(c, created.entity().collection()), id);
        };
    }

    /** In its parent's children or its page's entry list: ids in those lists are JSON strings. */
    private boolean listed(Created created) {
        long c = created.configuratorId();
        String quoted = "\"" + created.id() + "\"";
        return switch (created.entity()) {
            case CONFIGURATOR, VARIABLE -> false;
            case ITEM -> contains(keys.children(c), String.valueOf(created.itemId()), quoted);
            default ->
                contains(
                        keys.itemEntries(c),
                        created.itemId() + ":" + created.entity().page().wireName(),
                        quoted);
        };
    }

    private boolean contains(String hash, String field, String quoted) {
        var list = redis.execute(Command.HGET, hash, field).await().atMost(Duration.ofSeconds(5));
        return list != null && list.toString().contains(quoted);
    }

    private boolean redis(Command command, String... args) {
        return redis.execute(command, args)
                        .await()
                        .atMost(Duration.ofSeconds(5))
                        .toInteger()
                == 1;
    }
}
