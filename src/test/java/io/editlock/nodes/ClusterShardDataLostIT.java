package io.editlock.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.LockKeys;
import io.editlock.redis.embedded.RedisBinary;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedisCluster;
import io.editlock.support.TestTokens;
import io.editlock.support.WsClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §6 on a Redis Cluster: one shard can lose its data alone (its fail-over to a replica
 * that was behind). The locks that went with it are announced like any other data the store lost: the
 * holder gets its lock-lost, within a renew interval, also when the shard that lost its data is not the
 * one where a single store-wide mark would live.
 */
class ClusterShardDataLostIT {

    private static final LockKeys KEYS = new LockKeys("editlock");

    @Test
    void aShardThatLostItsDataAloneIsNoticed() throws Exception {
        Assumptions.assumeTrue(
                TestRedisCluster.redisCli().isPresent() && RedisBinary.onPath().isPresent(),
                "skipped: building a Redis Cluster needs redis-server and redis-cli on the PATH (apt-get install redis-server)");
        try (TestRedisCluster cluster = TestRedisCluster.start()) {
            TestTokens tokens = TestTokens.generate();
            Map<String, String> settings = Map.of(
                    "quarkus.redis.hosts",
                    cluster.hosts(),
                    "quarkus.redis.client-type",
                    "cluster",
                    "mp.jwt.verify.publickey.location",
                    tokens.publicKeyFile().toString(),
                    "editlock.lease.renew-interval",
                    "1s");
            try (ServerNode node = ServerNode.start("node-cluster", settings)) {
                String setup = tokens.token("setup", "Setup");
                long configurator;
                do {
                    configurator = node.createConfigurator(setup, "shard");
                } while (cluster.sameMaster(KEYS.locks(configurator), KEYS.storeMark()));
                try (WsClient sara = WsClient.connect(node.baseUri(), tokens.token("sara", "Sara"))) {
                    JsonNode granted = sara.request("lock-variables", Map.of("configuratorId", configurator));
                    assertEquals("lock-acquired", granted.path("event").asText(), granted.toString());
                    // The node has seen every shard's data as it is now.
                    WsClient.stays(() -> sara.events("lock-lost").isEmpty(), Duration.ofSeconds(3), "nothing lost yet");

                    cluster.flushMasterHolding(KEYS.locks(configurator));

                    JsonNode lost = sara.awaitEvent("lock-lost");
                    assertEquals("expired", lost.path("data").path("reason").asText(), lost.toString());
                    assertEquals(
                            configurator,
                            lost.path("data")
                                    .path("resource")
                                    .path("configuratorId")
                                    .asLong(),
                            lost.toString());
                }
            }
        }
    }
}
