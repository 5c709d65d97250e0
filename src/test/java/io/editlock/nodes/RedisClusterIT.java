package io.editlock.nodes;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.LockKeys;
import io.editlock.redis.embedded.RedisBinary;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import io.editlock.support.TestRedisCluster;
import io.editlock.support.WsClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on a three-master Redis Cluster that runs the shipped ACL: every script touches one slot,
 * broadcasts reach every node, and the ACL grants what the cluster client needs.
 */
class RedisClusterIT extends MultiNodeScenarios {

    private TestRedisCluster cluster;

    @Override
    Map<String, String> startStore() {
        // A fresh machine has only the bundled redis-server; CI installs redis-server and redis-cli.
        Assumptions.assumeTrue(
                TestRedisCluster.redisCli().isPresent() && RedisBinary.onPath().isPresent(),
                "skipped: building a Redis Cluster needs redis-server and redis-cli on the PATH (apt-get install redis-server)");
        // The cluster always runs the redis-server on the PATH: a run against another Redis (the bundled one)
        // would build the same cluster again, and the run against the PATH's Redis builds it.
        Assumptions.assumeTrue(
                sameFile(RedisBinary.onPath().orElseThrow(), TestRedis.binary()),
                "skipped: the cluster runs the redis-server on the PATH, and this run's Redis is another one;"
                        + " the run against the PATH's redis-server covers it");
        cluster = TestRedisCluster.start();
        return Map.of("quarkus.redis.hosts", cluster.hosts(), "quarkus.redis.client-type", "cluster");
    }

    @Override
    AutoCloseable store() {
        return cluster;
    }

    /**
     * docs/protocol.md §6 on a Redis Cluster: one shard can lose its data alone (its fail-over to a
     * replica that was behind). The holder of a lock that went with it gets its lock-lost within a renew
     * interval, also when that shard is not the one where a single store-wide mark would live.
     */
    @Test
    void aShardThatLostItsDataAloneIsNoticed() {
        LockKeys keys = new LockKeys("editlock");
        String setup = tokens.token("setup", "Setup");
        long configurator;
        do {
            configurator = nodeA.createConfigurator(setup, "shard");
        } while (cluster.sameMaster(keys.locks(configurator), keys.storeMark()));
        try (WsClient sara = WsClient.connect(nodeA.baseUri(), tokens.token("sara-shard", "Sara"))) {
            JsonNode granted = sara.request("lock-variables", Map.of("configuratorId", configurator));
            assertEquals("lock-acquired", granted.path("event").asText(), granted.toString());
            // The node has seen every shard's data as it is now (it looks every renew interval, 1 s).
            WsClient.stays(() -> sara.events("lock-lost").isEmpty(), Duration.ofSeconds(3), "nothing lost yet");

            cluster.flushMasterHolding(keys.locks(configurator));

            JsonNode lost = sara.awaitEvent("lock-lost");
            assertEquals("expired", lost.path("data").path("reason").asText(), lost.toString());
            assertEquals(
                    configurator,
                    lost.path("data").path("resource").path("configuratorId").asLong(),
                    lost.toString());
        }
    }

    /**
     * A socket's index of its configurators lives in a slot of its own. A shard that stalls there (paused,
     * or cut off from the node, with nothing failed over) costs the socket no lock on the other shards:
     * the node renews what it listed the socket under without waiting for the index (docs/protocol.md §6).
     */
    @Test
    void aStalledShardOfTheSocketsIndexEndsNoLockElsewhere() {
        LockKeys keys = new LockKeys("editlock");
        String setup = tokens.token("setup", "Setup");
        try (WsClient sara = WsClient.connect(nodeA.baseUri(), tokens.token("sara-stall", "Sara"));
                WsClient omar = WsClient.connect(nodeB.baseUri(), tokens.token("omar-stall", "Omar"))) {
            String index = keys.socketConfigurators(sara.socketId());
            long configurator;
            do {
                configurator = nodeA.createConfigurator(setup, "stall");
            } while (cluster.sameMaster(keys.locks(configurator), index));
            Map<String, Object> variables = Map.of("configuratorId", configurator);
            JsonNode granted = sara.request("lock-variables", variables);
            assertEquals("lock-acquired", granted.path("event").asText(), granted.toString());

            // Two leases: past what the lock would last unrenewed, within what the node's cluster connection
            // outlives (docs/operations.md: a shard silent past the Redis timeout stalls the node's connection).
            Duration pause = LEASE.multipliedBy(2);
            cluster.pauseMasterHolding(index, pause);
            WsClient.stays(
                    () -> sara.events("lock-lost").isEmpty(),
                    pause.plus(LEASE),
                    "two leases of the index's shard stalled, and a lease beyond");

            JsonNode refused = omar.request("lock-variables", variables);
            assertEquals("LOCKED", refused.path("data").path("code").asText(), refused.toString());
            assertEquals("Sara", refused.path("data").path("lockedBy").asText(), refused.toString());
        }
    }

    /**
     * The cluster client names a shard it cannot reach by a URL it makes from the seed's, password
     * included, and the node logs that failure: the log shows the URL without the password
     * (docs/operations.md, Redis ACL).
     */
    @Test
    void aShardThatCannotBeReachedIsLoggedWithoutThePassword() {
        String logged = "cannot open a Redis connection: ";
        cluster.crashMasterHolding(
                new LockKeys("editlock").storeMark(),
                () -> await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> Files.readString(nodeA.log()).contains(logged)));
        nodeA.awaitReady();
        nodeB.awaitReady();

        for (ServerNode node : List.of(nodeA, nodeB)) {
            String log = read(node.log());
            assertFalse(log.contains(cluster.password()), "the Redis password is in " + node.log());
        }
        assertTrue(
                read(nodeA.log()).contains("redis://editlock:***@127.0.0.1:"), "the shard's URL, without its password");
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean sameFile(Path one, Path other) {
        try {
            return Files.isSameFile(one, other);
        } catch (IOException e) {
            return false;
        }
    }
}
