package io.editlock.redis;

import io.vertx.mutiny.redis.client.RedisConnection;
import org.jboss.logging.Logger;

/**
 * Closes a connection that may already be gone. When the node stops, Quarkus closes the Redis clients
 * and their pools first; a connection's end then reaches us, and closing it again hands its lease back
 * to a pool that already took it ("Attempt to recycle more than permitted"). That is expected, not an
 * error worth an operator's attention on every deploy.
 */
final class QuietClose {

    private static final Logger LOG = Logger.getLogger(QuietClose.class);

    private QuietClose() {}

    static void close(RedisConnection connection) {
        connection
                .close()
                .subscribe()
                .with(closed -> {}, failure -> LOG.debugf("closing a Redis connection: %s", failure.getMessage()));
    }
}
