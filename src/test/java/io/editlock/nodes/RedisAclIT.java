package io.editlock.nodes;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.ShippedRedisAcl;
import io.editlock.support.TestRedis;
import java.util.Map;

/**
 * Two nodes on a Redis that runs the ACL of deploy/redis-users.acl: editlock works with only the
 * commands, keys and channels that file grants it (a missing one fails these scenarios), with a
 * password added at start as docker-compose.yml adds it.
 */
class RedisAclIT extends MultiNodeScenarios {

    private RedisProcess redisProcess;

    @Override
    Map<String, String> startStore() {
        ShippedRedisAcl acl = ShippedRedisAcl.asShipped();
        redisProcess = new RedisProcess(TestRedis.binary(), RedisProcess.freePort(), acl.serverArguments()).start();
        return Map.of("quarkus.redis.hosts", acl.url(redisProcess.port()));
    }

    @Override
    AutoCloseable store() {
        return redisProcess;
    }
}
