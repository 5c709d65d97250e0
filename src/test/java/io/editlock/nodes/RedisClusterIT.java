package io.editlock.nodes;

import io.editlock.support.TestRedisCluster;
import java.util.Map;

/** Two nodes on a three-master Redis Cluster: every script touches one slot, broadcasts reach every node. */
class RedisClusterIT extends MultiNodeScenarios {

    private TestRedisCluster cluster;

    @Override
    Map<String, String> startStore() {
        cluster = TestRedisCluster.start();
        return Map.of("quarkus.redis.hosts", cluster.hosts(), "quarkus.redis.client-type", "cluster");
    }

    @Override
    AutoCloseable store() {
        return cluster;
    }
}
