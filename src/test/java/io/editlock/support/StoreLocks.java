package io.editlock.support;

import io.editlock.redis.LockKeys;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import java.time.Duration;

/** What the store itself records of a configurator's locks, read past the server. */
public final class StoreLocks {

    private StoreLocks() {}

    /** Whether the socket keeps a lock of configurator {@code c}, by the store's own record. */
    public static boolean keptBy(ReactiveRedisDataSource data, LockKeys keys, long c, String socketId) {
        Response locks = data.execute(Command.HVALS, keys.locks(c)).await().atMost(Duration.ofSeconds(5));
        for (Response lock : locks) {
            if (lock.toString().contains("\"" + socketId + "\"")) {
                return true;
            }
        }
        return false;
    }
}
