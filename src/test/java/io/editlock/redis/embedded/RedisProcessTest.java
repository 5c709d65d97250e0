package io.editlock.redis.embedded;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.TestRedis;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class RedisProcessTest {

    @Test
    void closingRemovesTheWorkDirectoryWithItsLog() {
        RedisProcess redis = TestRedis.start();
        assertTrue(Files.exists(redis.workDir().resolve("redis.log")));

        redis.close();

        assertFalse(Files.exists(redis.workDir()), redis.workDir() + " is left behind");
    }

    @Test
    void aKilledRedisKeepsItsWorkDirectoryToStartAgainInIt() {
        try (RedisProcess redis = TestRedis.start()) {
            redis.kill();

            assertTrue(Files.isDirectory(redis.workDir()));
            redis.start();
            assertTrue(Files.exists(redis.workDir().resolve("redis.log")));
        }
    }
}
