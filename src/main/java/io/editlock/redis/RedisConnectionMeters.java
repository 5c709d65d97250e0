package io.editlock.redis;

import io.micrometer.core.instrument.config.MeterFilter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The Vert.x Redis client creates its request meters ({@code redis.queue.size}, {@code redis.current},
 * … tagged {@code clientType=redis}) once per connection, all under the client's name: every
 * connection after the first registers the same gauges again, which Micrometer refuses with a
 * warning, and the gauges that stay describe the first connection only. They are left out; the
 * client is described by {@code redis.commands.*} (every command, its duration and outcome) and
 * {@code redis.pool.*} (the pool's queue and usage), each registered once.
 */
@Singleton
public class RedisConnectionMeters {

    @Produces
    @Singleton
    MeterFilter leaveOutPerConnectionRequestMeters() {
        return MeterFilter.deny(id -> "redis".equals(id.getTag("clientType")));
    }
}
