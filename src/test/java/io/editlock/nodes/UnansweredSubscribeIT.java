package io.editlock.nodes;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.BlackHoleProxy;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import io.editlock.support.WsClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Redis takes a node's SUBSCRIBE and never answers it, neither confirming nor refusing (a connection
 * that went half-open at that moment, a stalled proxy or failover). The node must not wait on it for
 * ever: it gives the attempt up after 10 s, closes that connection and subscribes again on a new one,
 * so it is ready and hears the lock events once Redis answers (docs/operations.md, health).
 */
class UnansweredSubscribeIT {

    @Test
    void anUnansweredSubscribeIsGivenUpAndTriedAgain() {
        try (RedisProcess redis = TestRedis.start();
                BlackHoleProxy proxy = BlackHoleProxy.to(redis.port())) {
            proxy.swallowSubscribes(true);
            TestTokens tokens = TestTokens.generate();
            try (ServerNode node = ServerNode.launch(
                    "node-unanswered-subscribe",
                    Map.of(
                            "quarkus.redis.hosts",
                            proxy.url(),
                            "mp.jwt.verify.publickey.location",
                            tokens.publicKeyFile().toString()))) {
                await("the node's SUBSCRIBEs, swallowed")
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> proxy.swallowedSubscribes(false) >= 1);
                await("a node that hears nothing is up, and not ready")
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> readiness(node) == 503);

                await("an unanswered SUBSCRIBE given up: its connection closed by the node")
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> proxy.swallowedSubscribes(true) >= 1);
                proxy.swallowSubscribes(false);

                await("subscribed again on new connections, which Redis answers")
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> readiness(node) == 200);
                await("every unanswered attempt's connection closed")
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> proxy.swallowedSubscribes(false) == 0);

                long configurator = node.createConfigurator(tokens.token("setup", "Setup"), "unanswered");
                try (WsClient sara = WsClient.connect(node.baseUri(), tokens.token("sara", "Sara"));
                        WsClient omar = WsClient.connect(node.baseUri(), tokens.token("omar", "Omar"))) {
                    omar.request("watch", Map.of("configuratorId", configurator));
                    sara.request("lock-configurator", Map.of("configuratorId", configurator));
                    JsonNode updated = omar.awaitEvent(
                            frame -> frame.path("event").asText().equals("lock-updated")
                                    && !frame.path("data").path("locks").isEmpty());
                    assertEquals(
                            "sara",
                            updated.path("data")
                                    .path("locks")
                                    .get(0)
                                    .path("ownerUserId")
                                    .asText(),
                            "the node hears the lock events again: " + updated);
                }
            }
        }
    }

    /**
     * The readiness status, or -1 while the node does not listen yet. Rest Assured throws the refused
     * connection's checked {@code ConnectException} undeclared, so it is caught as an Exception.
     */
    private static int readiness(ServerNode node) {
        try {
            return given().baseUri(node.baseUri().toString())
                    .get("/q/health/ready")
                    .statusCode();
        } catch (Exception notListening) {
            return -1;
        }
    }
}
