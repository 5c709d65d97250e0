package io.editlock.nodes;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.TestRedis;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Two nodes on a Redis that runs the ACL of deploy/redis-users.acl: editlock works with only the
 * commands, keys and channels that file grants it (a missing one fails these scenarios), with a
 * password added at start as docker-compose.yml adds it.
 */
class RedisAclIT extends MultiNodeScenarios {

    private RedisProcess redisProcess;

    @Override
    Map<String, String> startStore() {
        // As docker-compose.yml does: the file holds no secret, the password is added at start.
        String secret = UUID.randomUUID().toString().replace("-", "");
        Path acl;
        try {
            acl = Files.createTempFile("editlock-users-", ".acl");
            acl.toFile().deleteOnExit();
            Files.write(
                    acl,
                    Files.readAllLines(Path.of("deploy", "redis-users.acl")).stream()
                            .map(line -> line.startsWith("user editlock ") ? line + " >" + secret : line)
                            .toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        redisProcess = new RedisProcess(
                        TestRedis.binary(), RedisProcess.freePort(), List.of("--aclfile", acl.toString()))
                .start();
        return Map.of("quarkus.redis.hosts", "redis://editlock:" + secret + "@127.0.0.1:" + redisProcess.port());
    }

    @Override
    AutoCloseable store() {
        return redisProcess;
    }
}
