package io.editlock.support;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Redis hash as it stood, put back later with no event: what a fail-over to a replica a moment
 * behind does to the locks hash of a configurator (docs/protocol.md §6).
 */
public final class HashSnapshot {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final ReactiveRedisDataSource redis;
    private final String key;
    /** The fields and values, one after the other. */
    private final List<String> fieldsAndValues = new ArrayList<>();

    private HashSnapshot(ReactiveRedisDataSource redis, String key) {
        this.redis = redis;
        this.key = key;
    }

    /** The hash as it stands now; it must hold something. */
    public static HashSnapshot of(ReactiveRedisDataSource redis, String key) {
        HashSnapshot snapshot = new HashSnapshot(redis, key);
        Response all = redis.execute(Command.HGETALL, key).await().atMost(WAIT);
        for (String field : all.getKeys()) {
            snapshot.fieldsAndValues.add(field);
            snapshot.fieldsAndValues.add(all.get(field).toString());
        }
        assertFalse(snapshot.fieldsAndValues.isEmpty(), key + " holds what was taken before");
        return snapshot;
    }

    /** The hash as it stood, and nothing else. */
    public void putBack() {
        List<String> args = new ArrayList<>();
        args.add(key);
        args.addAll(fieldsAndValues);
        redis.execute(Command.DEL, key).await().atMost(WAIT);
        redis.execute(Command.HSET, args.toArray(String[]::new)).await().atMost(WAIT);
    }
}
