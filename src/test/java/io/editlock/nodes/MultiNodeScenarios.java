package io.editlock.nodes;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.support.CloseAll;
import io.editlock.support.ServerNode;
import io.editlock.support.TestTokens;
import io.editlock.support.WsClient;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Server processes from the built jar sharing one store behave like one server: a lock taken on one
 * blocks a user on the other, watchers on one see changes made on the other, and a node killed with
 * {@code kill -9} loses nothing but its sockets. Run against one Redis and against a Redis Cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MultiNodeScenarios {

    static final Duration LEASE = Duration.ofSeconds(3);
    static final String ALLOWED_ORIGIN = "https://studio.example.com";

    AutoCloseable redis;
    TestTokens tokens;
    ServerNode nodeA;
    ServerNode nodeB;

    /** Starts the store and returns the settings that point a node at it. */
    abstract Map<String, String> startStore();

    abstract AutoCloseable store();

    Map<String, String> storeSettings;

    @BeforeAll
    void startNodes() {
        storeSettings = startStore();
        redis = store();
        tokens = TestTokens.generate();
        nodeA = ServerNode.start("node-a", settings());
        nodeB = ServerNode.start("node-b", settings());
    }

    @AfterAll
    void stopNodes() {
        CloseAll.close(nodeA, nodeB, redis);
    }

    Map<String, String> settings() {
        Map<String, String> settings = new HashMap<>(storeSettings);
        settings.putAll(Map.of(
                "mp.jwt.verify.publickey.location",
                tokens.publicKeyFile().toString(),
                "editlock.lease.ttl",
                LEASE.toMillis() + "ms",
                "editlock.lease.renew-interval",
                "1s",
                "editlock.lease.reaper-interval",
                "250ms",
                "editlock.session.sweep-interval",
                "250ms",
                "editlock.session.grace-period",
                "1s",
                "editlock.websocket.allowed-origins",
                ALLOWED_ORIGIN));
        return settings;
    }

    @Test
    void aLockOnOneNodeBlocksAUserOnTheOtherAndWatchersSeeIt() {
        long configurator = nodeA.createConfigurator(tokens.token("setup", "Setup"), "multi-node");
        try (WsClient sara = WsClient.connect(nodeA.baseUri(), tokens.token("sara", "Sara"));
                WsClient omar = WsClient.connect(nodeB.baseUri(), tokens.token("omar", "Omar"))) {
            omar.request("watch", Map.of("configuratorId", configurator));

            JsonNode granted = sara.request("lock-configurator", Map.of("configuratorId", configurator));
            assertEquals("lock-acquired", granted.path("event").asText(), "Sara on node A: " + granted);

            JsonNode update =
                    omar.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                            && frame.path("data").path("locks").size() == 1);
            assertEquals(
                    "Sara",
                    update.path("data")
                            .path("locks")
                            .get(0)
                            .path("ownerUserName")
                            .asText(),
                    "Omar's watcher on node B must see Sara's lock from node A");

            JsonNode refused = omar.request("lock-configurator", Map.of("configuratorId", configurator));
            assertEquals(
                    "LOCKED", refused.path("data").path("code").asText(), "Omar on node B must be refused: " + refused);
            assertEquals("Sara", refused.path("data").path("lockedBy").asText());

            sara.request("unlock-configurator", Map.of("configuratorId", configurator));
            omar.awaitEvent(frame -> frame.path("event").asText().equals("lock-released")
                    && frame.path("data").path("reason").asText().equals("unlock"));
            JsonNode now = omar.request("lock-configurator", Map.of("configuratorId", configurator));
            assertEquals("lock-acquired", now.path("event").asText(), "after the unlock on A, B must grant: " + now);
        }
    }

    @Test
    void theLocksOfAKilledNodeAreReleasedByTheSurvivorWithinTheLease() {
        ServerNode doomed = ServerNode.start("node-doomed", settings());
        long configurator = nodeB.createConfigurator(tokens.token("setup", "Setup"), "multi-node");
        try (WsClient sara = WsClient.connect(doomed.baseUri(), tokens.token("sara-2", "Sara"));
                WsClient omar = WsClient.connect(nodeB.baseUri(), tokens.token("omar-2", "Omar"))) {
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-configurator", Map.of("configuratorId", configurator))
                            .path("event")
                            .asText());
            omar.request("watch", Map.of("configuratorId", configurator));

            doomed.kill9();

            JsonNode released = await().atMost(LEASE.plusSeconds(5))
                    .until(() -> omar.events("lock-released").stream().findFirst(), Optional::isPresent)
                    .get();
            assertEquals(
                    "expired",
                    released.path("data").path("reason").asText(),
                    "a dead node's locks expire: " + released);
            assertEquals(
                    "lock-acquired",
                    omar.request("lock-configurator", Map.of("configuratorId", configurator))
                            .path("event")
                            .asText(),
                    "the page must be free again");
        } finally {
            doomed.close();
        }
    }

    @Test
    void aClientOfAKilledNodeResumesOnAnotherNode() {
        ServerNode doomed = ServerNode.start("node-doomed-2", settings());
        long configurator = nodeB.createConfigurator(tokens.token("setup", "Setup"), "multi-node");
        String token = tokens.token("sara-3", "Sara");
        try (WsClient before = WsClient.connect(doomed.baseUri(), token)) {
            String resumeToken =
                    before.welcome().path("data").path("resumeToken").asText();
            JsonNode granted = before.request("lock-variables", Map.of("configuratorId", configurator));
            long fencingToken = granted.path("data").path("lock").path("token").asLong();

            doomed.kill9();

            try (WsClient after = WsClient.connect(nodeB.baseUri(), token)) {
                // Until the dead node's heartbeat runs out, its sockets may still be open as far as
                // node B can tell: a client retries RESUME_FAILED while its grace lasts.
                JsonNode resumed = await().atMost(LEASE)
                        .pollInterval(Duration.ofMillis(200))
                        .until(
                                () -> after.request("resume", Map.of("resumeToken", resumeToken)),
                                reply -> reply.path("event").asText().equals("resumed"));
                assertEquals("resumed", resumed.path("event").asText(), "resume on node B: " + resumed);
                assertEquals(
                        fencingToken,
                        resumed.path("data").path("locks").get(0).path("token").asLong(),
                        "a resume gives back the same grant");
            }
        } finally {
            doomed.close();
        }
    }

    /**
     * docs/protocol.md §5: right after a crash the store still lists the dead node's socket as open (its
     * heartbeat has not run out yet); the resume must not fail for that: the dead node does not answer
     * for its socket within 1 s, and the locks move.
     */
    @Test
    void aResumeRightAfterANodeCrashSucceedsAtOnce() {
        Map<String, String> slowHeartbeat = new HashMap<>(settings());
        slowHeartbeat.put("editlock.session.sweep-interval", "1s"); // its heartbeat outlives it by seconds
        ServerNode doomed = ServerNode.start("node-doomed-3", slowHeartbeat);
        long configurator = nodeB.createConfigurator(tokens.token("setup", "Setup"), "multi-node");
        String token = tokens.token("sara-4", "Sara");
        try (WsClient before = WsClient.connect(doomed.baseUri(), token)) {
            String resumeToken =
                    before.welcome().path("data").path("resumeToken").asText();
            long fencingToken = before.request("lock-variables", Map.of("configuratorId", configurator))
                    .path("data")
                    .path("lock")
                    .path("token")
                    .asLong();

            doomed.kill9();

            try (WsClient after = WsClient.connect(nodeB.baseUri(), token)) {
                JsonNode resumed = after.request("resume", Map.of("resumeToken", resumeToken));
                assertEquals(
                        "resumed",
                        resumed.path("event").asText(),
                        "the first resume right after the crash: " + resumed);
                assertEquals(
                        fencingToken,
                        resumed.path("data").path("locks").get(0).path("token").asLong(),
                        "a resume gives back the same grant");
            }
        } finally {
            doomed.close();
        }
    }

    /** docs/protocol.md §5: a socket that a live node confirms open cannot be resumed elsewhere. */
    @Test
    void aSocketStillOpenOnALiveNodeIsNotResumedElsewhere() {
        long configurator = nodeB.createConfigurator(tokens.token("setup", "Setup"), "multi-node");
        String token = tokens.token("sara-5", "Sara");
        try (WsClient open = WsClient.connect(nodeA.baseUri(), token);
                WsClient other = WsClient.connect(nodeB.baseUri(), token)) {
            String resumeToken = open.welcome().path("data").path("resumeToken").asText();
            assertEquals(
                    "lock-acquired",
                    open.request("lock-variables", Map.of("configuratorId", configurator))
                            .path("event")
                            .asText());

            JsonNode refused = other.request("resume", Map.of("resumeToken", resumeToken));

            assertEquals(
                    "RESUME_FAILED",
                    refused.path("data").path("code").asText(),
                    "node A says its socket is open: " + refused);
            JsonNode relock = open.request("lock-variables", Map.of("configuratorId", configurator));
            assertEquals(
                    true,
                    relock.path("event").asText().equals("lock-acquired")
                            && relock.path("data")
                                    .path("lock")
                                    .path("resource")
                                    .path("type")
                                    .asText()
                                    .equals("variables"),
                    "the open socket still holds its lock: " + relock);
        }
    }

    /**
     * docs/protocol.md §6: idleness is the user's. Sara locks in a tab on one node and works in a tab on
     * another: her lock stays through twice the idle timeout, while Omar, idle beside her, loses his.
     */
    @Test
    void activityOnOneNodeKeepsTheUsersLocksOnAnotherNode() {
        Duration idle = Duration.ofSeconds(3);
        Map<String, String> settings = new HashMap<>(settings());
        settings.put("editlock.session.idle-timeout", idle.toMillis() + "ms");
        String sara = tokens.token("sara-idle", "Sara");
        try (ServerNode editing = ServerNode.start("node-idle-a", settings);
                ServerNode working = ServerNode.start("node-idle-b", settings)) {
            long configurator = editing.createConfigurator(tokens.token("setup", "Setup"), "multi-node");
            try (WsClient lockingTab = WsClient.connect(editing.baseUri(), sara);
                    WsClient workingTab = WsClient.connect(working.baseUri(), sara);
                    WsClient omar = WsClient.connect(editing.baseUri(), tokens.token("omar-idle", "Omar"))) {
                assertEquals(
                        "lock-acquired",
                        lockingTab
                                .request("lock-configurator", Map.of("configuratorId", configurator))
                                .path("event")
                                .asText());
                assertEquals(
                        "lock-acquired",
                        omar.request(
                                        "lock-configurator",
                                        Map.of(
                                                "configuratorId",
                                                editing.createConfigurator(
                                                        tokens.token("setup", "Setup"), "multi-node")))
                                .path("event")
                                .asText());

                long until = System.nanoTime() + idle.multipliedBy(2).toNanos();
                while (System.nanoTime() < until) {
                    assertEquals(
                            "touched",
                            workingTab.request("touch", Map.of()).path("event").asText());
                    WsClient.stays(
                            () -> lockingTab.events("lock-lost").isEmpty(),
                            Duration.ofMillis(500),
                            "Sara is at work on the other node: her lock must stay");
                }
                assertEquals(
                        "idle",
                        omar.awaitEvent("lock-lost").path("data").path("reason").asText(),
                        "Omar sent nothing: his lock goes");
            }
        }
    }

    /**
     * An item, then its configurator, deleted on one node are gone on both at once, and the node takes
     * their items' and entries' ids out of the global indexes after each (their commands allowed by the
     * shipped ACL, in a Cluster each in its own slot).
     */
    @Test
    void aConfiguratorDeletedOnOneNodeIsGoneOnBothAndItsIdsLeaveTheIndexes() {
        String token = tokens.token("sara", "Sara");
        long configurator = nodeA.createConfigurator(token, "multi-node");
        long item = created(nodeA, token, "/api/configurators/" + configurator + "/items", Map.of("name", "Frame"));
        created(nodeA, token, "/api/items/" + item + "/filters", Map.of("expression", "size > 2"));
        long doomed = created(nodeA, token, "/api/configurators/" + configurator + "/items", Map.of("name", "Old"));
        long child = created(
                nodeA,
                token,
                "/api/configurators/" + configurator + "/items",
                Map.of("name", "Older", "parentItemId", doomed));
        long filter = created(nodeA, token, "/api/items/" + child + "/filters", Map.of("expression", "size > 3"));

        as(nodeA, token).delete("/api/items/" + doomed).then().statusCode(204);

        as(nodeB, token).get("/api/items/" + child).then().statusCode(404);
        as(nodeB, token).get("/api/filters/" + filter).then().statusCode(404);
        String itemDone =
                "deleted items of configurator " + configurator + ": 3 ids of items and entries are out of the indexes";
        await().atMost(Duration.ofSeconds(20))
                .until(() -> Files.readString(nodeA.log()).contains(itemDone));

        as(nodeA, token).delete("/api/configurators/" + configurator).then().statusCode(204);

        as(nodeB, token).get("/api/configurators/" + configurator).then().statusCode(404);
        as(nodeB, token).get("/api/items/" + item).then().statusCode(404);
        String done =
                "deleted configurator " + configurator + ": 2 ids of its items and entries are out of the indexes";
        await().atMost(Duration.ofSeconds(20))
                .until(() -> Files.readString(nodeA.log()).contains(done));
    }

    private static RequestSpecification as(ServerNode node, String token) {
        return given().baseUri(node.baseUri().toString())
                .header("Authorization", "Bearer " + token)
                .contentType("application/json");
    }

    private static long created(ServerNode node, String token, String route, Map<String, Object> body) {
        return as(node, token)
                .body(body)
                .post(route)
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getLong("id");
    }
}
