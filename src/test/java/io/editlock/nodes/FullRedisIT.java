package io.editlock.nodes;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.CloseAll;
import io.editlock.support.RedisAdmin;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import io.editlock.support.WsClient;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis is full (maxmemory reached, policy noeviction): it refuses what would grow it, so new locks
 * are answered UNAVAILABLE and REST writes 503, and nothing already held is lost (docs/protocol.md §4,
 * docs/operations.md "Redis settings"): the leases of live sockets are renewed, places in line kept,
 * releases and resumes go through. The node is not ready meanwhile, so that a balancer sends new users
 * elsewhere; once Redis has room again everything works as before.
 */
class FullRedisIT {

    static final Duration LEASE = Duration.ofSeconds(4);

    RedisProcess redis;
    TestTokens tokens;
    ServerNode node;

    @BeforeEach
    void start() {
        redis = new RedisProcess(
                        TestRedis.binary(), RedisProcess.freePort(), List.of("--maxmemory-policy", "noeviction"))
                .start();
        tokens = TestTokens.generate();
        node = ServerNode.start(
                "node-full",
                Map.of(
                        "quarkus.redis.hosts",
                        redis.url(),
                        "mp.jwt.verify.publickey.location",
                        tokens.publicKeyFile().toString(),
                        "editlock.lease.ttl",
                        LEASE.toMillis() + "ms",
                        "editlock.lease.renew-interval",
                        "1s",
                        "editlock.session.stop-wait",
                        "0s"));
    }

    @AfterEach
    void stop() {
        CloseAll.close(node, redis);
    }

    @Test
    void whatIsHeldStaysHeldWhileRedisIsFull() throws IOException {
        long configurator = node.createConfigurator(tokens.token("setup", "Setup"), "full");
        long other = node.createConfigurator(tokens.token("setup", "Setup"), "other");
        try (WsClient sara = WsClient.connect(node.baseUri(), tokens.token("sara", "Sara"));
                WsClient wu = WsClient.connect(node.baseUri(), tokens.token("wu", "Wu"));
                WsClient omar = WsClient.connect(node.baseUri(), tokens.token("omar", "Omar"))) {
            Map<String, Object> variables = Map.of("configuratorId", configurator);
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-variables", variables).path("event").asText());
            assertEquals(
                    "queued",
                    wu.request(
                                    "wait-for",
                                    Map.of("resource", Map.of("type", "variables", "configuratorId", configurator)))
                            .path("event")
                            .asText());
            omar.request("watch", variables);
            Map<String, Object> otherVariables = Map.of("configuratorId", other);
            assertEquals(
                    "lock-acquired",
                    omar.request("lock-variables", otherVariables).path("event").asText());

            full();
            try {
                WsClient.stays(
                        () -> sara.events("lock-lost").isEmpty()
                                && wu.events("not-waiting").isEmpty()
                                && omar.events("lock-released").isEmpty(),
                        LEASE.multipliedBy(3),
                        "three leases pass while Redis is full, and nothing held ends");
                JsonNode released = omar.request("unlock-variables", otherVariables);
                assertEquals("lock-released", released.path("event").asText(), "a release frees room: " + released);
                JsonNode refused = omar.request("lock-variables", otherVariables);
                assertEquals("UNAVAILABLE", refused.path("data").path("code").asText(), refused.toString());
                // The user is told the store is unavailable; the operator reads why.
                await().atMost(Duration.ofSeconds(5))
                        .until(() -> Files.readString(node.log())
                                .lines()
                                .anyMatch(line -> line.contains("Redis refused") && line.contains("OOM")));
                given().baseUri(node.baseUri().toString())
                        .header("Authorization", "Bearer " + tokens.token("omar", "Omar"))
                        .contentType("application/json")
                        .body(Map.of("name", "renamed"))
                        .patch("/api/configurators/" + other)
                        .then()
                        .statusCode(503);
                // Redis still answers PING and loads scripts: the heartbeat it refuses tells the balancer.
                await().atMost(Duration.ofSeconds(5))
                        .untilAsserted(() -> given().baseUri(node.baseUri().toString())
                                .get("/q/health/ready")
                                .then()
                                .statusCode(503)
                                .body("checks.find { it.name == 'editlock heartbeat' }.status", equalTo("DOWN"))
                                .body(
                                        "checks.find { it.name == 'editlock heartbeat' }.data.reason",
                                        equalTo("the lock store is full")));

                String resumeToken = sara.resumeToken();
                sara.drop();
                try (WsClient saraAgain = WsClient.connect(node.baseUri(), tokens.token("sara", "Sara"))) {
                    JsonNode resumed = saraAgain.resumeOnceDropNoted(resumeToken);
                    assertEquals("resumed", resumed.path("event").asText(), "a resume keeps what is held: " + resumed);
                    saraAgain.request("unlock-variables", variables);
                }
                JsonNode handed = wu.awaitEvent("lock-acquired");
                assertTrue(handed.path("data").path("queued").asBoolean(), "the line is served: " + handed);
            } finally {
                RedisAdmin.command(redis, "CONFIG", "SET", "maxmemory", "0");
            }

            await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> given().baseUri(node.baseUri().toString())
                            .get("/q/health/ready")
                            .then()
                            .statusCode(200));
            JsonNode stillHeld = omar.request("lock-variables", variables);
            assertEquals("LOCKED", stillHeld.path("data").path("code").asText(), stillHeld.toString());
            assertEquals("Wu", stillHeld.path("data").path("lockedBy").asText(), stillHeld.toString());
            assertEquals(
                    "lock-acquired",
                    omar.request("lock-variables", otherVariables).path("event").asText(),
                    "with room again a free page is granted");
        }
    }

    /** Redis refuses every command that may grow it, as a Redis at its maxmemory does. */
    private void full() throws IOException {
        assertEquals("+OK", RedisAdmin.command(redis, "CONFIG", "SET", "maxmemory", "1"));
    }
}
