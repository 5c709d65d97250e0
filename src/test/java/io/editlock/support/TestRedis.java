package io.editlock.support;

import io.editlock.redis.embedded.RedisBinary;
import io.editlock.redis.embedded.RedisProcess;
import java.nio.file.Path;

/** A redis-server of a test's own (to share between nodes, stop or restart), chosen like the embedded one. */
public final class TestRedis {

    private TestRedis() {}

    public static RedisProcess start() {
        return RedisProcess.onFreePort(binary()).start();
    }

    /** {@code kill -<name>} of the redis-server: {@code STOP} freezes it (connections open, no answers), {@code CONT} thaws it. */
    public static void signal(RedisProcess redis, String name) {
        Signals.send(redis.pid(), name, "redis-server");
    }

    /** The redis-server the embedded mode would run here ({@code EDITLOCK_EMBEDDED_REDIS_BINARY}). */
    public static Path binary() {
        String choice = System.getenv()
                .getOrDefault(
                        "EDITLOCK_EMBEDDED_REDIS_BINARY",
                        System.getProperty("editlock.embedded-redis.binary", RedisBinary.AUTO));
        return RedisBinary.resolve(choice);
    }
}
