package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Holding;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** docs/protocol.md §8, retry-safe creates: the same key, user and body give the first answer again, and create once. */
@QuarkusTest
class IdempotencyKeyTest {

    private static final String KEY = "Idempotency-Key";

    @TestHTTPResource("/")
    URI base;

    @Inject
    ReactiveRedisDataSource redis;

    @Test
    void aRetryGetsTheFirstAnswerAndCreatesNothing() {
        TestUser sara = DemoLogin.user("Sara");
        String key = UUID.randomUUID().toString();
        Response first = as(sara).header(KEY, key).body(Map.of("name", "Bike")).post("/api/configurators");
        Response retry = as(sara).header(KEY, key).body(Map.of("name", "Bike")).post("/api/configurators");
        assertEquals(201, first.statusCode());
        assertEquals(201, retry.statusCode());
        assertEquals(first.header("Location"), retry.header("Location"));
        assertEquals(first.jsonPath().getLong("id"), retry.jsonPath().getLong("id"));
        assertEquals(first.jsonPath().getString("createdAt"), retry.jsonPath().getString("createdAt"));
        long c = first.jsonPath().getLong("id");
        // The list comes in pages by id: the page that starts at this configurator.
        String page = "/api/configurators?after=" + (c - 1);
        assertEquals("Bike", as(sara).get(page).jsonPath().getString("[0].name"));
        assertEquals(
                1,
                as(sara).get(page).jsonPath().getList("id").stream()
                        .filter(id -> ((Number) id).longValue() == c)
                        .count());

        long item = Api.item(sara, c, null);
        for (String[] route : createsIn(c, item)) {
            String k = UUID.randomUUID().toString();
            Response a = as(sara).header(KEY, k).body(route[1]).post(route[0]);
            Response b = as(sara).header(KEY, k).body(route[1]).post(route[0]);
            assertEquals(201, a.statusCode(), route[0] + " " + a.asString());
            assertEquals(201, b.statusCode(), route[0] + " " + b.asString());
            assertEquals(a.header("Location"), b.header("Location"), route[0]);
            assertEquals(a.asString(), b.asString(), route[0]);
        }
        var tree = as(sara).get("/api/configurators/" + c).jsonPath();
        assertEquals(
                2,
                tree.getList("items").size(),
                "one item of the fixture, one created under a key: " + tree.prettify());
        assertEquals(
                1, tree.getList("items.find { it.id == " + item + " }.filters").size());
        assertEquals(1, tree.getList("variables").size());
    }

    @Test
    void theFirstAnswerComesBackEvenWhenTheWriteWouldNowBeRefused() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser omar = DemoLogin.user("Omar");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        String key = UUID.randomUUID().toString();
        Response first =
                as(sara).header(KEY, key).body(Map.of("expression", "a")).post("/api/items/" + item + "/filters");
        assertEquals(201, first.statusCode());
        try (Holding holding = Holding.connect(base, omar)) {
            holding.page(item, "filters");
            // Sara's answer was lost; her retry is the same create, not a new write against Omar's lock.
            Response retry =
                    as(sara).header(KEY, key).body(Map.of("expression", "a")).post("/api/items/" + item + "/filters");
            assertEquals(201, retry.statusCode());
            assertEquals(first.jsonPath().getLong("id"), retry.jsonPath().getLong("id"));
            // A new key is a new write: refused.
            as(sara).header(KEY, UUID.randomUUID().toString())
                    .body(Map.of("expression", "a"))
                    .post("/api/items/" + item + "/filters")
                    .then()
                    .statusCode(423);
        }
    }

    @Test
    void theSameKeyWithAnotherBodyOrRouteIs422() {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        String key = UUID.randomUUID().toString();
        as(sara).header(KEY, key)
                .body(Map.of("name", "Frame"))
                .post("/api/configurators/" + c + "/items")
                .then()
                .statusCode(201);
        as(sara).header(KEY, key)
                .body(Map.of("name", "Fork"))
                .post("/api/configurators/" + c + "/items")
                .then()
                .statusCode(422);
        as(sara).header(KEY, key)
                .body(Map.of("name", "Frame"))
                .post("/api/configurators")
                .then()
                .statusCode(422);
        assertEquals(
                1,
                as(sara).get("/api/configurators/" + c)
                        .jsonPath()
                        .getList("items")
                        .size());
    }

    @Test
    void keysOfDifferentUsersNeverMeet() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser omar = DemoLogin.user("Omar");
        String key = UUID.randomUUID().toString();
        long a = as(sara).header(KEY, key)
                .body(Map.of("name", "Same"))
                .post("/api/configurators")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getLong("id");
        long b = as(omar).header(KEY, key)
                .body(Map.of("name", "Same"))
                .post("/api/configurators")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getLong("id");
        assertTrue(a != b);
    }

    @Test
    void aRefusedCreateLeavesNoRecord() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser omar = DemoLogin.user("Omar");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        String key = UUID.randomUUID().toString();
        try (Holding holding = Holding.connect(base, omar)) {
            holding.page(item, "filters");
            as(sara).header(KEY, key)
                    .body(Map.of("expression", "a"))
                    .post("/api/items/" + item + "/filters")
                    .then()
                    .statusCode(423);
        }
        // Tried afresh, even with another body.
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> as(sara).header(KEY, key)
                                .body(Map.of("expression", "b"))
                                .post("/api/items/" + item + "/filters")
                                .statusCode()
                        == 201);
    }

    @Test
    void aBadKeyIs400() {
        TestUser sara = DemoLogin.user("Sara");
        as(sara).header(KEY, "x".repeat(65))
                .body(Map.of("name", "Bike"))
                .post("/api/configurators")
                .then()
                .statusCode(400);
        as(sara).header(KEY, "tab\there")
                .body(Map.of("name", "Bike"))
                .post("/api/configurators")
                .then()
                .statusCode(400);
        as(sara).header(KEY, "ünïcode")
                .body(Map.of("name", "Bike"))
                .post("/api/configurators")
                .then()
                .statusCode(400);
        // 400 comes before 404 (docs/protocol.md §11)
        as(sara).header(KEY, "x".repeat(65))
                .body(Map.of("name", "Frame"))
                .post("/api/configurators/999999999/items")
                .then()
                .statusCode(400);
        as(sara).header(KEY, "x".repeat(64))
                .body(Map.of("name", "Bike"))
                .post("/api/configurators")
                .then()
                .statusCode(201);
    }

    static Stream<List<String>> keysThatAreNone() {
        return Stream.of(List.of(""), List.of("first-" + UUID.randomUUID(), "second-" + UUID.randomUUID()));
    }

    /** Every create inside configurator c, under its item: route and body. */
    private static List<String[]> createsIn(long c, long item) {
        return List.of(
                new String[] {"/api/configurators/" + c + "/items", "{\"name\":\"Frame\"}"},
                new String[] {"/api/items/" + item + "/filters", "{\"expression\":\"x > 1\"}"},
                new String[] {
                    "/api/items/" + item + "/dependencies", "{\"targetItemId\":" + item + ",\"effect\":\"hide\"}"
                },
                new String[] {"/api/items/" + item + "/attribute-values", "{\"name\":\"w\",\"value\":\"1\"}"},
                new String[] {"/api/configurators/" + c + "/variables", "{\"name\":\"v\",\"formula\":\"1\"}"});
    }

    /**
     * An empty header is a bad key, not an absent one: a client that sent it must not lose its retry
     * safety unawares. Two keys are no key either: which one the client meant cannot be known.
     */
    @ParameterizedTest
    @MethodSource("keysThatAreNone")
    void aHeaderThatIsNoKeyIs400OnEveryCreateAndCreatesNothing(List<String> sent) {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        List<String[]> creates = new ArrayList<>(createsIn(c, item));
        creates.add(new String[] {"/api/configurators", "{\"name\":\"Bike\"}"});
        for (String[] route : creates) {
            RequestSpecification request = as(sara);
            sent.forEach(key -> request.header(KEY, key));
            Response refused = request.body(route[1]).post(route[0]);
            assertEquals(400, refused.statusCode(), route[0] + " " + refused.asString());
            assertTrue(refused.jsonPath().getString("message").contains(KEY), refused.asString());
        }
        var tree = as(sara).get("/api/configurators/" + c).jsonPath();
        assertEquals(1, tree.getList("items").size(), tree.prettify());
        assertTrue(tree.getList("items[0].filters").isEmpty(), tree.prettify());
        assertTrue(tree.getList("items[0].dependencies").isEmpty(), tree.prettify());
        assertTrue(tree.getList("variables").isEmpty(), tree.prettify());
        assertEquals(
                List.of(c),
                as(sara).get("/api/configurators?after=" + (c - 1)).jsonPath().getList("id", Long.class),
                "no configurator after the fixture's");
    }

    @Test
    void theRecordIsKeptFor24Hours() {
        TestUser sara = DemoLogin.user("Sara");
        String key = UUID.randomUUID().toString();
        long c = as(sara).header(KEY, key)
                .body(Map.of("name", "Bike"))
                .post("/api/configurators")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getLong("id");
        var records = redis.execute(Command.KEYS, "*{c" + c + "}:idempotency:*")
                .await()
                .atMost(Duration.ofSeconds(5));
        assertEquals(1, records.size());
        long ttl = redis.execute(Command.TTL, records.get(0).toString())
                .await()
                .atMost(Duration.ofSeconds(5))
                .toLong();
        assertTrue(
                ttl > Duration.ofHours(24).minusMinutes(1).toSeconds()
                        && ttl <= Duration.ofHours(24).toSeconds(),
                "TTL " + ttl);
    }

    @Test
    void concurrentDuplicatesCreateExactlyOnce() throws Exception {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        int threads = 12;
        for (int round = 0; round < 5; round++) {
            String key = UUID.randomUUID().toString();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Response>> answers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                answers.add(pool.submit((Callable<Response>) () -> {
                    start.await();
                    return as(sara).header(KEY, key)
                            .body(Map.of("name", "Wheel"))
                            .post("/api/configurators/" + c + "/items");
                }));
            }
            start.countDown();
            Set<String> locations = new HashSet<>();
            int created = 0;
            for (Future<Response> answer : answers) {
                Response response = answer.get();
                assertTrue(
                        response.statusCode() == 201 || response.statusCode() == 409,
                        response.statusCode() + " " + response.asString());
                if (response.statusCode() == 201) {
                    created++;
                    locations.add(response.header("Location"));
                }
            }
            pool.shutdown();
            assertTrue(created >= 1);
            assertEquals(1, locations.size(), "every 201 names the same item");
            // A retry after the rush gets that item too.
            Response retry =
                    as(sara).header(KEY, key).body(Map.of("name", "Wheel")).post("/api/configurators/" + c + "/items");
            assertEquals(201, retry.statusCode());
            assertEquals(locations.iterator().next(), retry.header("Location"));
        }
        assertEquals(
                5,
                as(sara).get("/api/configurators/" + c)
                        .jsonPath()
                        .getList("items")
                        .size());
    }
}
