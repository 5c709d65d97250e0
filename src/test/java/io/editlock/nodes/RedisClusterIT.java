package io.editlock.nodes;

import io.editlock.redis.embedded.RedisBinary;
import io.editlock.support.TestRedisCluster;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

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
        cluster = TestRedisCluster.start();
        return Map.of("quarkus.redis.hosts", cluster.hosts(), "quarkus.redis.client-type", "cluster");
    }

    @Override
    AutoCloseable store() {
        return cluster;
    }
}
