package io.editlock.redis.embedded;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.TestRedis;
import java.nio.file.Files;
import java.util.List;
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

    /**
     * A port taken by another redis-server between choosing it and starting (another test, another
     * node starting at the same time) must fail the start: answering for the other server would
     * share its data, and lose it when the other one stops.
     */
    @Test
    void aPortAnotherRedisListensOnIsNotTakenForItsOwn() {
        try (RedisProcess other = TestRedis.start();
                RedisProcess late = new RedisProcess(TestRedis.binary(), other.port(), List.of())) {
            assertThrows(RedisProcess.ExitedAtStart.class, late::start);
        }
    }
}
