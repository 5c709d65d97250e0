package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.FrozenRedis;
import io.editlock.support.Holding;
import io.editlock.support.ScriptHooks;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §8: writes fail closed. A write whose script waits in a frozen Redis (SIGSTOP) until
 * the server has answered 503 must write nothing when Redis wakes up (SIGCONT) and runs it: the
 * writer was told nothing was written, and would otherwise find their change applied behind their back.
 * The same holds for a release answered "not released" (§4).
 */
@QuarkusTest
@TestProfile(FrozenRedis.class)
class LateWriteTest {

    @Inject
    PipelinedRedis redis;

    @Inject
    LockKeys keys;

    @TestHTTPResource("/")
    URI base;

    /** What each write script's route sends: configurator id, item id → response. */
    private static final Map<String, BiFunction<RequestSpecification, long[], Response>> WRITES = Map.of(
            "rename_configurator", (r, ids) -> r.body(Map.of("name", "late")).patch("/api/configurators/" + ids[0]),
            "delete_configurator", (r, ids) -> r.delete("/api/configurators/" + ids[0]),
            "add_item", (r, ids) -> r.body(Map.of("name", "late")).post("/api/configurators/" + ids[0] + "/items"),
            "rename_item", (r, ids) -> r.body(Map.of("name", "late")).patch("/api/items/" + ids[1]),
            "delete_item", (r, ids) -> r.delete("/api/items/" + ids[1]),
            "add_entry", (r, ids) -> r.body(Map.of("expression", "late")).post("/api/items/" + ids[1] + "/filters"),
            "update_entry", (r, ids) -> r.body(Map.of("expression", "late")).patch("/api/filters/" + ids[2]),
            "delete_entry", (r, ids) -> r.delete("/api/filters/" + ids[2]));

    @ParameterizedTest
    @ValueSource(
            strings = {
                "rename_configurator",
                "delete_configurator",
                "add_item",
                "rename_item",
                "delete_item",
                "add_entry",
                "update_entry",
                "delete_entry"
            })
    void aWriteAnswered503WritesNothingWhenItRunsLate(String script) {
        TestUser sara = DemoLogin.user("Sara");
        // Redis knows the script once it ran: the late run finds it, as in production, and does not
        // fail for want of it.
        WRITES.get(script).apply(as(sara), fixture(sara)).then().statusCode(lessThan(300));
        long[] ids = fixture(sara);
        long c = ids[0];
        String before = tree(sara, c);

        ScriptHooks.install(redis).beforeNext(script, FrozenRedis::frozen);
        try {
            WRITES.get(script).apply(as(sara), ids).then().statusCode(503).body("message", notNullValue());
        } finally {
            FrozenRedis.thaw();
        }

        // Redis now runs the write that waited in it; for a while, nothing may change.
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(10))
                .untilAsserted(() ->
                        assertEquals(before, tree(sara, c), script + " ran after its writer was told 503, and wrote"));
    }

    /** Creating a configurator is guarded by nothing, but it fails closed like every write. */
    @Test
    void aCreateAnswered503CreatesNothingWhenItRunsLate() {
        TestUser sara = DemoLogin.user("Sara");
        as(sara).body(Map.of("name", "known")).post("/api/configurators").then().statusCode(201);

        ScriptHooks.install(redis).beforeNext("create_configurator", FrozenRedis::frozen);
        try {
            as(sara).body(Map.of("name", "late"))
                    .post("/api/configurators")
                    .then()
                    .statusCode(503);
        } finally {
            FrozenRedis.thaw();
        }
        // The id the create drew before its script went out: nothing else creates configurators here.
        long drawn = Long.parseLong(redis.execute(Command.GET, keys.sequence("configurator"))
                .await()
                .atMost(Duration.ofSeconds(10))
                .toString());

        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> as(sara).get("/api/configurators/" + drawn).then().statusCode(404));
    }

    /**
     * A keyed create answered 503 is no longer in progress (docs/protocol.md §8): its in-flight mark,
     * reaching Redis only after the answer, must not answer the retry 409 for the next half minute.
     */
    @Test
    void theRetryOfAKeyedCreateAnswered503IsNotToldItIsInProgress() {
        TestUser sara = DemoLogin.user("Sara");
        // Redis knows the script once it ran: the late run finds it, as in production.
        keyed(sara, "known-" + System.nanoTime())
                .post("/api/configurators")
                .then()
                .statusCode(201);
        String key = "late-" + System.nanoTime();

        ScriptHooks.install(redis).beforeNext("mark_in_flight", FrozenRedis::frozen);
        try {
            keyed(sara, key).post("/api/configurators").then().statusCode(503);
        } finally {
            FrozenRedis.thaw();
        }

        Response retry = keyed(sara, key).post("/api/configurators");
        retry.then().statusCode(201);
        // The retry created it; a second retry replays that answer.
        Response again = keyed(sara, key).post("/api/configurators");
        again.then().statusCode(201);
        assertEquals(retry.jsonPath().getLong("id"), again.jsonPath().getLong("id"));
    }

    /**
     * The store refuses a keyed create after its mark was set, and refuses the mark's first clear too:
     * the clear is tried again until it lands, so that the retry is not told 409 for the rest of the
     * mark's half minute. (The refusal is an ACL that denies INCR and DEL for a moment.)
     */
    @Test
    void theMarkOfAKeyedCreateTheStoreFailedGoesOnceTheStoreWorksAgain() {
        TestUser sara = DemoLogin.user("Sara");
        keyed(sara, "known-" + System.nanoTime())
                .post("/api/configurators")
                .then()
                .statusCode(201);
        String key = "refused-" + System.nanoTime();

        acl("-incr", "-del");
        try {
            keyed(sara, key).post("/api/configurators").then().statusCode(503);
        } finally {
            acl("+incr", "+del");
        }

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> keyed(sara, key).post("/api/configurators").then().statusCode(201));
    }

    /**
     * A keyed create that succeeded, whose mark the store refuses to clear right then: the 201 is
     * answered, and the clear is tried again until it lands, so that a retry is not told 409 "still in
     * progress" for the rest of the mark's half minute but replays the 201. (The refusal is an ACL that
     * denies DEL from the moment the clear goes out until the 201 has arrived.)
     */
    @Test
    void theMarkOfAKeyedCreateThatSucceededGoesWhenItsFirstClearIsRefused() {
        TestUser sara = DemoLogin.user("Sara");
        keyed(sara, "known-" + System.nanoTime())
                .post("/api/configurators")
                .then()
                .statusCode(201);
        String key = "cleared-late-" + System.nanoTime();

        ScriptHooks.install(redis)
                .beforeNext(
                        "clear_in_flight",
                        () -> redis.execute(Command.ACL, "SETUSER", "default", "-del")
                                .replaceWithVoid());
        Response created;
        try {
            created = keyed(sara, key).post("/api/configurators");
            created.then().statusCode(201);
        } finally {
            acl("+del");
        }

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Response retry = keyed(sara, key).post("/api/configurators");
            retry.then().statusCode(201);
            assertEquals(created.jsonPath().getLong("id"), retry.jsonPath().getLong("id"), "the answer replayed");
        });
    }

    private void acl(String... rules) {
        String[] args = new String[rules.length + 2];
        args[0] = "SETUSER";
        args[1] = "default";
        System.arraycopy(rules, 0, args, 2, rules.length);
        redis.execute(Command.ACL, args).await().atMost(Duration.ofSeconds(10));
    }

    private static RequestSpecification keyed(TestUser user, String key) {
        return as(user).header(IdempotentCreates.HEADER, key).body(Map.of("name", "keyed"));
    }

    /**
     * A delete that ran is answered as done, even when the store stalls right after it: its locks'
     * holders were told and watchers saw it go, so its writer must not hear "nothing was written".
     */
    @ParameterizedTest
    @ValueSource(strings = {"delete_configurator", "delete_item", "delete_entry"})
    void aDeleteThatRanIsAnsweredDoneWhenTheStoreStallsRightAfter(String script) {
        TestUser sara = DemoLogin.user("Sara");
        WRITES.get(script).apply(as(sara), fixture(sara)).then().statusCode(lessThan(300));
        long[] ids = fixture(sara);

        ScriptHooks.install(redis).afterNext(script, FrozenRedis::frozen);
        try {
            WRITES.get(script).apply(as(sara), ids).then().statusCode(204);
        } finally {
            FrozenRedis.thaw();
        }

        String gone = switch (script) {
            case "delete_configurator" -> "/api/configurators/" + ids[0];
            case "delete_item" -> "/api/items/" + ids[1];
            default -> "/api/filters/" + ids[2];
        };
        as(sara).get(gone).then().statusCode(404);
    }

    /**
     * An unlock answered UNAVAILABLE, or a break-lock answered 503, released nothing (docs/protocol.md
     * §4, §8): the holder still edits, so a release that runs after that answer must do nothing.
     */
    @ParameterizedTest
    @ValueSource(strings = {"unlock", "break-lock"})
    void aReleaseAnsweredUnavailableReleasesNothingWhenItRunsLate(String how) {
        TestUser sara = DemoLogin.user("Sara");
        TestUser admin = DemoLogin.user("Ada", "admin");
        long c = Api.configurator(sara);
        try (Holding mine = Holding.connect(base, sara)) {
            mine.variables(c);
            // Redis knows the script once it ran: the late run finds it, as in production.
            JsonNode unlocked = mine.socket().request("unlock-variables", Map.of("configuratorId", c));
            assertEquals("lock-released", unlocked.path("event").asText(), unlocked.toString());
            mine.variables(c);

            ScriptHooks.install(redis).beforeNext("release_lock", FrozenRedis::frozen);
            try {
                if (how.equals("unlock")) {
                    JsonNode refused = mine.socket().request("unlock-variables", Map.of("configuratorId", c));
                    assertEquals("unlock-failed", refused.path("event").asText(), refused.toString());
                    assertEquals(
                            "UNAVAILABLE", refused.path("data").path("code").asText(), refused.toString());
                } else {
                    as(admin)
                            .delete("/api/locks/configurator:" + c + ":variables")
                            .then()
                            .statusCode(503);
                }
            } finally {
                FrozenRedis.thaw();
            }

            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> as(sara).get("/api/configurators/" + c + "/locks")
                            .then()
                            .statusCode(200)
                            .body("resource.type", contains("variables")));
        }
    }

    /** A configurator with an item with a filter: their ids. */
    private static long[] fixture(TestUser user) {
        long c = Api.configurator(user);
        long item = Api.item(user, c, null);
        return new long[] {c, item, Api.filter(user, item)};
    }

    private static String tree(TestUser user, long c) {
        return as(user).get("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .extract()
                .asString();
    }
}
