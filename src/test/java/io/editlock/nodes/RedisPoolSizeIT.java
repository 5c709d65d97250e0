package io.editlock.nodes;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.RedisIndependent;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md: the packaged server does not start with a {@code quarkus.redis.max-pool-size}
 * that leaves no room for its three pub/sub subscriptions and the health check (it would miss broadcasts
 * and never turn ready), and says which setting and what minimum; with that minimum it starts and turns
 * ready.
 */
@RedisIndependent
class RedisPoolSizeIT {

    @Test
    void aPoolWithoutRoomForTheSubscriptionsAndTheHealthCheckStopsTheStart() throws IOException {
        try (RedisProcess redis = TestRedis.start();
                ServerNode node = ServerNode.launch(
                        "node-small-pool",
                        Map.of("quarkus.redis.hosts", redis.url(), "quarkus.redis.max-pool-size", "3"))) {
            int exit = node.awaitExit(Duration.ofSeconds(60));
            String log = Files.readString(node.log());
            assertNotEquals(0, exit, "a start with 3 pooled connections must fail; its log: " + log);
            assertTrue(
                    log.contains("quarkus.redis.max-pool-size is 3") && log.contains("Set it to 4 or more"),
                    "the message must name the setting and the minimum; the log: " + log);
        }
    }

    @Test
    void theSmallestPoolWithRoomForThemStartsReady() throws IOException {
        // start() returns once the node answers ready: its subscriptions got their connections.
        try (RedisProcess redis = TestRedis.start();
                ServerNode node = ServerNode.start(
                        "node-pool-4",
                        Map.of("quarkus.redis.hosts", redis.url(), "quarkus.redis.max-pool-size", "4"))) {
            String log = Files.readString(node.log());
            assertTrue(!log.contains("max-pool-size"), "no complaint about the pool; the log: " + log);
        }
    }
}
