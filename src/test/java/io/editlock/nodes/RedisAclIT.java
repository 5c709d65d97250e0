package io.editlock.nodes;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.TestRedis;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Two nodes on a Redis that runs the ACL of deploy/redis-users.acl: editlock works with only the
 * commands, keys and channels that file grants it (a missing one fails these scenarios).
 */
class RedisAclIT extends MultiNodeScenarios {

    private RedisProcess redisProcess;

    @Override
    Map<String, String> startStore() {
        Path acl = Path.of("deploy", "redis-users.acl").toAbsolutePath();
        redisProcess = new RedisProcess(TestRedis.binary(), RedisProcess.freePort(), List.of("--aclfile", acl.toString())).start();
        return Map.of("quarkus.redis.hosts", "redis://editlock:change-me@127.0.0.1:" + redisProcess.port());
    }

    @Override
    AutoCloseable store() {
        return redisProcess;
    }
}
