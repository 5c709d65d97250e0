package io.editlock.nodes;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.CloseAll;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import io.editlock.support.WsClient;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis goes away and comes back (a crash and a restart with its append-only file): the node says
 * so on readiness, refuses lock requests with UNAVAILABLE instead of granting or closing sockets,
 * and works again afterwards — scripts reloaded, watchers re-synced, no lock held twice.
 */
class RedisOutageIT {

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final Duration LOOKS_EVERY = Duration.ofSeconds(2);

    RedisProcess redis;
    TestTokens tokens;
    ServerNode node;

    @BeforeEach
    void start() {
        redis = new RedisProcess(
                        TestRedis.binary(),
                        RedisProcess.freePort(),
                        List.of("--appendonly", "yes", "--appendfsync", "always"))
                .start();
        tokens = TestTokens.generate();
        node = ServerNode.start(
                "node-outage",
                Map.of(
                        "quarkus.redis.hosts",
                        redis.url(),
                        "mp.jwt.verify.publickey.location",
                        tokens.publicKeyFile().toString(),
                        "quarkus.redis.timeout",
                        "2s",
                        // The store's data is looked at once a renew interval: a few looks in a short wait.
                        "editlock.lease.renew-interval",
                        LOOKS_EVERY.toMillis() + "ms",
                        // Its clients never reconnect: a stop that waited for their resumes would only wait.
                        "editlock.session.stop-wait",
                        "0s"));
    }

    @AfterEach
    void stop() {
        CloseAll.close(node, redis);
    }

    @Test
    void locksFailClosedWhileRedisIsDownAndWorkAgainAfterwards() {
        long configurator = node.createConfigurator(tokens.token("setup", "Setup"), "outage");
        try (WsClient sara = WsClient.connect(node.baseUri(), tokens.token("sara", "Sara"));
                WsClient omar = WsClient.connect(node.baseUri(), tokens.token("omar", "Omar"))) {
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-variables", Map.of("configuratorId", configurator))
                            .path("event")
                            .asText());
            omar.request("watch", Map.of("configuratorId", configurator));

            redis.kill();

            await().atMost(Duration.ofSeconds(15)).until(() -> readyStatus() == 503);
            JsonNode refused = omar.request("lock-configurator", Map.of("configuratorId", configurator));
            assertEquals(
                    "UNAVAILABLE",
                    refused.path("data").path("code").asText(),
                    "no grant without the store: " + refused);
            assertFalse(omar.isClosed(), "a store outage must not close sockets");
            given().baseUri(node.baseUri().toString())
                    .header("Authorization", "Bearer " + tokens.token("omar", "Omar"))
                    .contentType("application/json")
                    .body(Map.of("name", "renamed"))
                    .when()
                    .patch("/api/configurators/" + configurator)
                    .then()
                    .statusCode(503);
            omar.clear();
            sara.clear();

            redis.start();

            await().atMost(Duration.ofSeconds(15)).until(() -> readyStatus() == 200);
            JsonNode resynced =
                    omar.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                            && frame.path("data").path("configuratorId").asLong() == configurator);
            assertEquals(
                    "Sara",
                    resynced.path("data")
                            .path("locks")
                            .get(0)
                            .path("ownerUserName")
                            .asText(),
                    "after the outage watchers get the state again: " + resynced);
            sara.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated") && !frame.has("ref"));
            assertEquals(
                    List.of(),
                    sara.events("lock-lost"),
                    "Sara's lock survived: she must not be told she lost it (that comes before lock-updated)");
            JsonNode stillRefused = await().atMost(Duration.ofSeconds(10))
                    .until(
                            () -> omar.request("lock-configurator", Map.of("configuratorId", configurator)),
                            reply -> !reply.path("data").path("code").asText().equals("UNAVAILABLE"));
            assertEquals(
                    "LOCKED",
                    stillRefused.path("data").path("code").asText(),
                    "Sara's lock survived the restart, so Omar is still refused: " + stillRefused);
        }
    }

    /**
     * Redis comes back without the data it had (a restart without its files, a failover to a replica
     * that had not yet received the grant): the holder is told, with {@code lock-lost}, that the lock
     * she was granted is gone, and the page can be locked again (docs/protocol.md §4).
     */
    @Test
    void aHolderIsToldHerLockIsGoneWhenRedisComesBackWithoutIt() throws IOException {
        long configurator = node.createConfigurator(tokens.token("setup", "Setup"), "outage");
        try (WsClient sara = WsClient.connect(node.baseUri(), tokens.token("sara", "Sara"));
                WsClient omar = WsClient.connect(node.baseUri(), tokens.token("omar", "Omar"))) {
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-variables", Map.of("configuratorId", configurator))
                            .path("event")
                            .asText());
            omar.request("watch", Map.of("configuratorId", configurator));
            // The node has seen the store's data before it goes: its look has a mark to compare.
            await().pollDelay(LOOKS_EVERY.multipliedBy(2))
                    .atMost(LOOKS_EVERY.multipliedBy(3))
                    .until(() -> true);

            redis.kill();
            forgetRedisData();
            redis.start();

            // One loss, one catch-up: the watcher re-reads the configurator once, not again at the next look.
            omar.awaitEvent(RedisOutageIT::configuratorChanged, Duration.ofSeconds(30));
            WsClient.stays(
                    () -> omar.frames(RedisOutageIT::configuratorChanged).size() == 1,
                    LOOKS_EVERY.multipliedBy(3),
                    "one content-changed for one loss of the store's data");

            JsonNode lost =
                    sara.awaitEvent(frame -> frame.path("event").asText().equals("lock-lost"), Duration.ofSeconds(30));
            assertEquals(
                    configurator,
                    lost.path("data").path("resource").path("configuratorId").asLong(),
                    lost.toString());
            assertEquals(
                    "variables", lost.path("data").path("resource").path("type").asText(), lost.toString());
            assertEquals("expired", lost.path("data").path("reason").asText(), lost.toString());
            assertFalse(sara.isClosed(), "the socket stays open");
            await().atMost(Duration.ofSeconds(10))
                    .until(
                            () -> Files.readString(node.log()),
                            log -> log.contains("the lock store came back without the data this node saw before"));
        }
    }

    private static boolean configuratorChanged(JsonNode frame) {
        return frame.path("event").asText().equals("content-changed")
                && frame.path("data").path("entity").asText().equals("configurator");
    }

    /** Everything Redis wrote to disk (its append-only files), as if it came back on an empty disk. */
    private void forgetRedisData() throws IOException {
        try (Stream<Path> files = Files.walk(redis.workDir())) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                if (!file.equals(redis.workDir())
                        && !file.getFileName().toString().equals("redis.log")) {
                    Files.delete(file);
                }
            }
        }
    }

    /**
     * Redis stops answering without closing anything (frozen, a stuck failover, a half-open connection):
     * requests are answered UNAVAILABLE once quarkus.redis.timeout (2 s here) has passed, sockets stay,
     * and once Redis answers again the node has dropped the silent connections and works on new ones.
     */
    @Test
    void aFrozenRedisTimesRequestsOutAndTheNodeRecovers() throws Exception {
        long configurator = node.createConfigurator(tokens.token("setup", "Setup"), "outage");
        long other = node.createConfigurator(tokens.token("setup", "Setup"), "outage");
        try (WsClient sara = WsClient.connect(node.baseUri(), tokens.token("sara", "Sara"));
                WsClient omar = WsClient.connect(node.baseUri(), tokens.token("omar", "Omar"))) {
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-variables", Map.of("configuratorId", configurator))
                            .path("event")
                            .asText());

            TestRedis.signal(redis, "STOP");
            try {
                JsonNode refused = omar.request("lock-configurator", Map.of("configuratorId", configurator));
                assertEquals(
                        "UNAVAILABLE",
                        refused.path("data").path("code").asText(),
                        "no answer from the store: " + refused);
                assertFalse(omar.isClosed(), "a silent store must not close sockets");
            } finally {
                TestRedis.signal(redis, "CONT");
            }

            JsonNode stillRefused = await().atMost(Duration.ofSeconds(10))
                    .until(
                            () -> omar.request("lock-configurator", Map.of("configuratorId", configurator)),
                            reply -> !reply.path("data").path("code").asText().equals("UNAVAILABLE"));
            assertEquals(
                    "LOCKED",
                    stillRefused.path("data").path("code").asText(),
                    "Sara still holds variables: " + stillRefused);
            assertEquals(
                    "lock-acquired",
                    omar.request("lock-configurator", Map.of("configuratorId", other))
                            .path("event")
                            .asText(),
                    "a free configurator is granted again");
        }
    }

    private int readyStatus() throws Exception {
        return HTTP.send(
                        HttpRequest.newBuilder(node.baseUri().resolve("q/health/ready"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
