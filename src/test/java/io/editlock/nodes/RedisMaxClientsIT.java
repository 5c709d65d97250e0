package io.editlock.nodes;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Redis at its maxclients answers a new connection with "ERR max number of clients reached" and closes
 * it. docs/operations.md tells operators to size maxclients, and that Redis's refusals are logged in
 * its own words: a node that Redis refuses connections must say so in its log, and its readiness must
 * say why the lock store does not answer (not "null"), in plain words.
 */
class RedisMaxClientsIT {

    /**
     * A node needs far more connections (three subscriptions, one per event loop):
     * the first to get in holds the only one, and every other connection, the probe's too, is refused.
     */
    private static final String MAX_CLIENTS = "1";

    private static final String CHECK = "checks.find { it.name == 'editlock lock store' }";

    @Test
    void aNodeThatRedisRefusesConnectionsSaysWhy() throws Exception {
        try (RedisProcess redis = new RedisProcess(
                                TestRedis.binary(), RedisProcess.freePort(), List.of("--maxclients", MAX_CLIENTS))
                        .start();
                // Vert.x logs the sockets Redis closes in the handshake as "Unhandled Error" itself.
                ServerNode node = ServerNode.launch("node-maxclients", Map.of("quarkus.redis.hosts", redis.url()))
                        .errorsExpected()) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> Files.readString(node.log())
                            .contains("Redis refused a connection: ERR max number of clients reached"));
            // Each call takes as long as the lock store's check waits for an answer.
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .untilAsserted(() -> given().baseUri(node.baseUri().toString())
                            .get("/q/health/ready")
                            .then()
                            .statusCode(503)
                            .body(CHECK + ".status", equalTo("DOWN"))
                            .body(CHECK + ".data.reason", equalTo("the lock store refuses this node's connections")));
            // Redis's own words are for the operator's log, not for the public readiness page.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> Files.readString(node.log())
                            .contains("not ready, the lock store refuses this node's connections: "));
        }
    }
}
