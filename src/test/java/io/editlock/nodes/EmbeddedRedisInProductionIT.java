package io.editlock.nodes;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.ServerNode;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §10: the packaged server, started in production without {@code quarkus.redis.hosts},
 * stops at once with a message naming that setting (nodes on private Redis servers would grant the
 * same page twice), unless {@code editlock.embedded-redis.enabled=true} asks for the embedded one.
 */
class EmbeddedRedisInProductionIT {

    @Test
    void aProductionStartWithoutRedisHostsStopsAndNamesTheSetting() throws IOException {
        try (ServerNode node = ServerNode.launch("node-no-redis", Map.of())) {
            int exit = node.awaitExit(Duration.ofSeconds(60));
            String log = Files.readString(node.log());
            assertNotEquals(0, exit, "a production start without quarkus.redis.hosts must fail; its log: " + log);
            assertTrue(
                    log.contains("quarkus.redis.hosts is not set"),
                    "the message must name the setting; the log: " + log);
            assertTrue(!log.contains("started an embedded Redis"), "no embedded Redis may be started; the log: " + log);
        }
    }

    @Test
    void anEmbeddedRedisWhenAskedForOnPurpose() throws IOException {
        // A port of its own: one the node would find free itself could be the one its HTTP server is about to bind.
        Map<String, String> settings = Map.of(
                "editlock.embedded-redis.enabled",
                "true",
                "editlock.embedded-redis.port",
                String.valueOf(RedisProcess.freePort()));
        try (ServerNode node = ServerNode.start("node-embedded", settings)) {
            assertTrue(
                    Files.readString(node.log()).contains("started an embedded Redis"),
                    "the node runs on its embedded Redis");
        }
    }
}
