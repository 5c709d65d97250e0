package io.editlock.waiting;

import static io.editlock.support.Api.as;
import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.filters;
import static io.editlock.support.Sockets.page;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.redis.LockScripts;
import io.editlock.redis.LockKeys;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Deleting what people wait for (docs/protocol.md §13, §14): their wait ends with {@code lock-failed}
 * {@code NOT_FOUND}, nothing is ever granted on what is gone, and what the delete frees goes to whom
 * waits for it in the same step.
 */
@QuarkusTest
@TestProfile(TakeoverTest.ShortConsent.class)
class DeleteEndsWaitingTest {

    private static final Duration CONSENT = TakeoverTest.CONSENT;

    @TestHTTPResource("/")
    URI base;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    LockScripts lockScripts;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    private WsClient connect(TestUser user) {
        return sockets.connect(base, user);
    }

    private static Map<String, Object> dependencies(long item) {
        return Map.of("type", "item-subresource", "itemId", item, "page", "dependencies");
    }

    @Test
    void deletingAnItemEndsItsLinesAndTakeOversAndGrantsNothingOnIt() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient tom = connect(DemoLogin.user("Tom"));
        WsClient omar = connect(DemoLogin.user("Omar"));
        WsClient watcher = connect(DemoLogin.user("Lea"));
        watcher.request("watch", Map.of("configuratorId", c));
        sara.request("lock-item-subresource", page(item));
        sara.request("lock-item-subresource", Map.of("itemId", item, "page", "dependencies"));
        assertEquals(
                "queued", tom.request("wait-for", about(item)).path("event").asText());
        JsonNode pending = omar.request("request-takeover", Map.of("resource", dependencies(item)));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());

        as(saraUser).delete("/api/items/" + item).then().statusCode(204);

        for (WsClient waiter : List.of(tom, omar)) {
            JsonNode failed = waiter.awaitEvent("lock-failed");
            assertEquals("NOT_FOUND", failed.path("data").path("code").asText(), failed.toString());
            assertEquals(
                    item, failed.path("data").path("resource").path("itemId").asLong());
            assertFalse(failed.has("ref"), "not a reply: " + failed);
        }
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data").path("locks").isEmpty()
                && !frame.path("data").has("waiting"));
        List<String> waiting = keys.waiting(c);
        assertEquals(0, count(Command.EXISTS, waiting.get(0), waiting.get(3)), "no line and no take-over is left");

        // What would have served them finds nothing to grant: the reapers' catch-up, and the consent window's end.
        lockScripts.reapExpired(c).await().atMost(Duration.ofSeconds(5));
        await().during(CONSENT.plusSeconds(1))
                .atMost(CONSENT.plusSeconds(5))
                .until(() -> tom.events("lock-acquired").isEmpty()
                        && omar.events("takeover-granted").isEmpty());
        as(saraUser)
                .get("/api/configurators/" + c + "/locks")
                .then()
                .statusCode(200)
                .body("size()", is(0));
    }

    /** The lines and take-overs of every page in the sub-tree end, and only those: a line beside it stays. */
    @Test
    void deletingAnItemEndsTheLinesOfItsWholeSubtreeAndNoOthers() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long top = Api.item(saraUser, c, null);
        long child = Api.item(saraUser, c, top);
        long grandchild = Api.item(saraUser, c, child);
        long beside = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient tom = connect(DemoLogin.user("Tom"));
        WsClient omar = connect(DemoLogin.user("Omar"));
        WsClient kim = connect(DemoLogin.user("Kim"));
        sara.request("lock-item-subresource", page(grandchild));
        sara.request("lock-item-subresource", Map.of("itemId", child, "page", "dependencies"));
        sara.request("lock-item-subresource", page(beside));
        assertEquals(
                "queued",
                tom.request("wait-for", about(grandchild)).path("event").asText());
        JsonNode pending = omar.request("request-takeover", Map.of("resource", dependencies(child)));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
        assertEquals(
                "queued", kim.request("wait-for", about(beside)).path("event").asText());

        as(saraUser).delete("/api/items/" + top).then().statusCode(204);

        assertEquals(
                grandchild,
                tom.awaitEvent("lock-failed")
                        .path("data")
                        .path("resource")
                        .path("itemId")
                        .asLong());
        assertEquals(
                child,
                omar.awaitEvent("lock-failed")
                        .path("data")
                        .path("resource")
                        .path("itemId")
                        .asLong());
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(5))
                .until(() -> kim.events("lock-failed").isEmpty());
        assertEquals(1, count(Command.EXISTS, keys.waiting(c).get(0)), "Kim's line beside the sub-tree stays");
        sara.request("unlock-item-subresource", page(beside));
        assertEquals(
                beside,
                kim.awaitEvent("lock-acquired")
                        .path("data")
                        .path("lock")
                        .path("resource")
                        .path("itemId")
                        .asLong());
    }

    @Test
    void whatAnItemDeleteFreesGoesToWhomWaitsForIt() {
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient tom = connect(tomUser);
        sara.request("lock-item-subresource", page(item));
        JsonNode queued =
                tom.request("wait-for", Map.of("resource", Map.of("type", "configurator", "configuratorId", c)));
        assertEquals("queued", queued.path("event").asText(), queued.toString());

        as(saraUser).delete("/api/items/" + item).then().statusCode(204);

        JsonNode granted = tom.awaitEvent(frame -> frame.path("event").asText().equals("lock-acquired")
                        && frame.path("data").path("queued").asBoolean())
                .path("data")
                .path("lock");
        assertEquals("configurator", granted.path("resource").path("type").asText(), granted.toString());
        assertEquals(tomUser.id(), granted.path("ownerUserId").asText());
    }

    @Test
    void deletingAConfiguratorEndsEveryLineAndTakeOverInIt() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient tom = connect(DemoLogin.user("Tom"));
        WsClient omar = connect(DemoLogin.user("Omar"));
        sara.request("lock-configurator", Map.of("configuratorId", c));
        assertEquals(
                "queued",
                tom.request("wait-for", Map.of("resource", filters(item)))
                        .path("event")
                        .asText());
        JsonNode pending = omar.request(
                "request-takeover", Map.of("resource", Map.of("type", "configurator", "configuratorId", c)));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());

        as(saraUser).delete("/api/configurators/" + c).then().statusCode(204);

        for (WsClient waiter : List.of(tom, omar)) {
            JsonNode failed = waiter.awaitEvent("lock-failed");
            assertEquals("NOT_FOUND", failed.path("data").path("code").asText(), failed.toString());
            assertEquals(
                    c,
                    failed.path("data").path("resource").path("configuratorId").asLong());
        }
        List<String> waiting = keys.waiting(c);
        assertEquals(0, count(Command.EXISTS, waiting.toArray(String[]::new)), "the configurator's lines are gone");
        await().during(CONSENT.plusSeconds(1))
                .atMost(CONSENT.plusSeconds(5))
                .until(() -> omar.events("takeover-granted").isEmpty());
        lockScripts.reapExpired(c).await().atMost(Duration.ofSeconds(5));
        assertEquals(0, count(Command.EXISTS, keys.locks(c)), "no lock was granted on the deleted configurator");
        assertTrue(tom.events("lock-acquired").isEmpty());
    }

    private long count(Command command, String... args) {
        return redis.execute(command, args)
                .await()
                .atMost(Duration.ofSeconds(5))
                .toLong();
    }
}
