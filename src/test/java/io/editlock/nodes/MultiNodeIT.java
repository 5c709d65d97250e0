package io.editlock.nodes;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.TestRedis;
import java.util.Map;

/** Two nodes on one Redis. */
class MultiNodeIT extends MultiNodeScenarios {

    private RedisProcess redisProcess;

    @Override
    Map<String, String> startStore() {
        redisProcess = TestRedis.start();
        return Map.of("quarkus.redis.hosts", redisProcess.url());
    }

    @Override
    AutoCloseable store() {
        return redisProcess;
    }
}
