package io.editlock.redis;

import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.vertx.redis.client.RedisOptions;
import jakarta.inject.Singleton;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Quarkus (3.33) builds every named Redis client twice at start-up, once for the client beans and
 * once for the data sources, and keeps the first; the second is never used. Both would register the
 * same meters (the pool's {@code redis.pool.*} and the connections' {@code redis.active.connections}
 * under the client's name), and the second registration is refused with a warning on every start.
 * The spare gets names of its own, so that the client that serves the commands registers its meters
 * once, under the client's name.
 */
@Singleton
public class SpareClientPoolName implements RedisOptionsCustomizer {

    static final String SPARE_SUFFIX = "-spare";

    private final Set<String> built = ConcurrentHashMap.newKeySet();

    @Override
    public void customize(String clientName, RedisOptions options) {
        if (!built.add(clientName)) {
            options.setPoolName(clientName + SPARE_SUFFIX);
            options.setMetricsName("redis|" + clientName + SPARE_SUFFIX);
        }
    }
}
