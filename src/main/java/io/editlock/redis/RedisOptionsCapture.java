package io.editlock.redis;

import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.vertx.redis.client.RedisOptions;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Keeps a copy of the options Quarkus built for the default Redis client (hosts, client type, TLS,
 * credentials, timeouts — everything under {@code quarkus.redis.*}), so that {@link PipelinedRedis}
 * can open clients of its own with exactly the same settings.
 */
@Singleton
public class RedisOptionsCapture implements RedisOptionsCustomizer {

    private volatile RedisOptions defaultClient;

    @Override
    public void customize(String clientName, RedisOptions options) {
        if (RedisConfig.DEFAULT_CLIENT_NAME.equals(clientName)) {
            defaultClient = new RedisOptions(options);
        }
    }

    /** Empty until the default client has been created. */
    public Optional<RedisOptions> defaultClient() {
        RedisOptions options = defaultClient;
        return options == null ? Optional.empty() : Optional.of(new RedisOptions(options));
    }
}
