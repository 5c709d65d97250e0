package io.editlock.nodes;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.BlackHoleProxy;
import io.editlock.support.CloseAll;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import io.editlock.support.WsClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every connection a node has to Redis goes silent at once and stays open (half-open connections):
 * calls on them never get an answer. Each call is bounded, and a renewal pass never waits on another,
 * so the node moves to new connections and a live socket's lock is renewed throughout.
 */
class StuckRedisConnectionIT {

    static final Duration LEASE = Duration.ofSeconds(9);

    RedisProcess redis;
    BlackHoleProxy proxy;
    TestTokens tokens;
    ServerNode node;

    @BeforeEach
    void start() {
        redis = TestRedis.start();
        proxy = BlackHoleProxy.to(redis.port());
        tokens = TestTokens.generate();
        node = ServerNode.start(
                "node-stuck",
                Map.of(
                        "quarkus.redis.hosts",
                        proxy.url(),
                        "mp.jwt.verify.publickey.location",
                        tokens.publicKeyFile().toString(),
                        "quarkus.redis.timeout",
                        "1s",
                        "editlock.lease.ttl",
                        LEASE.toMillis() + "ms",
                        "editlock.lease.renew-interval",
                        "3s",
                        // Its clients never reconnect: a stop that waited for their resumes would only wait.
                        "editlock.session.stop-wait",
                        "0s"));
    }

    @AfterEach
    void stop() {
        CloseAll.close(node, proxy, redis);
    }

    @Test
    void stuckCallsNeverStopTheRenewalOfALiveSocketsLock() {
        long configurator = node.createConfigurator(tokens.token("setup", "Setup"), "stuck");
        try (WsClient sara = WsClient.connect(node.baseUri(), tokens.token("sara", "Sara"))) {
            JsonNode granted = sara.request("lock-configurator", Map.of("configuratorId", configurator));
            assertEquals("lock-acquired", granted.path("event").asText(), "the lock to keep: " + granted);
            Instant grantedUntil = Instant.parse(
                    granted.path("data").path("lock").path("expiresAt").asText());
            await("a renewal of Sara's lease while the store still answers")
                    .atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> leaseEnd(sara, configurator).isAfter(grantedUntil));

            proxy.swallowOpenConnections();

            Instant keepUntil = Instant.now().plus(LEASE.multipliedBy(3));
            while (Instant.now().isBefore(keepUntil)) {
                sara.send("touch", Map.of()); // the user works; replies may wait for the store
                // At the user's pace: the renewals must hold the lock all the while.
                WsClient.stays(
                        () -> sara.events("lock-lost").isEmpty(),
                        Duration.ofSeconds(1),
                        "a live socket's lock must survive stuck connections");
            }
            assertTrue(
                    sara.events("lock-lost").isEmpty(),
                    "a live socket's lock must survive stuck connections: " + sara.received());
            try (WsClient omar = WsClient.connect(node.baseUri(), tokens.token("omar", "Omar"))) {
                JsonNode refused = await().atMost(Duration.ofSeconds(10))
                        .until(
                                () -> omar.request("lock-configurator", Map.of("configuratorId", configurator)),
                                reply -> !reply.path("data")
                                        .path("code")
                                        .asText()
                                        .equals("UNAVAILABLE"));
                assertEquals(
                        "LOCKED",
                        refused.path("data").path("code").asText(),
                        "Sara's lease was renewed all along, so Omar is refused: " + refused);
            }
        }
    }

    /** When the lease of the configurator's one lock ends, as a watcher sees it. */
    private static Instant leaseEnd(WsClient client, long configurator) {
        JsonNode state = client.request("watch", Map.of("configuratorId", configurator));
        return Instant.parse(
                state.path("data").path("locks").path(0).path("expiresAt").asText());
    }
}
