package io.editlock.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Every {@code editlock.*} setting, with its default. Documented for operators in docs/configuration.md. */
@ConfigMapping(prefix = "editlock")
public interface EditlockConfig {

    /** Leases of locks in the store. */
    Lease lease();

    /** Redis layout. */
    Redis redis();

    /** The Redis started when {@code quarkus.redis.hosts} is not set. */
    EmbeddedRedis embeddedRedis();

    interface Lease {
        /**
         * How long a lock lives in the store without renewal. The node that owns the socket renews it
         * every third of this while the socket lives; a dead node's locks go after at most this.
         */
        @WithDefault("30s")
        Duration ttl();

        /** How often every node looks for leases that ran out (to release and announce them). */
        @WithDefault("1s")
        Duration reaperInterval();

        /** How many configurators one reaper pass looks at, at most. */
        @WithDefault("200")
        int reaperBatch();
    }

    interface Redis {
        /**
         * Prefix of every key and channel editlock writes, so that several deployments (or test
         * runs) can share one Redis.
         */
        @WithDefault("editlock")
        String keyPrefix();
    }

    interface EmbeddedRedis {
        /**
         * Which redis-server to start when {@code quarkus.redis.hosts} is not set: {@code auto} (one
         * on the PATH, else the one bundled in the embedded-redis artifact), {@code bundled}, or a
         * path to a redis-server binary. Read before the application starts, see
         * EmbeddedRedisConfigSourceFactory.
         */
        @WithDefault("auto")
        String binary();

        /** Port of the embedded Redis; unset means a free loopback port. */
        Optional<Integer> port();
    }
}
