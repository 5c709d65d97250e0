package io.editlock.redis;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The lock path's commands share one Redis connection and are pipelined on it, instead of each
 * borrowing a pooled connection for its whole round trip. With a pool, every command is its own
 * write and read on both sides and at most pool-size commands are in flight; on one connection the
 * commands of many sockets leave in one write and their replies come back in one read, on the
 * server and in Redis alike. A connection that fails is dropped; the next command opens another
 * (commands in flight on it fail, and their requests are answered UNAVAILABLE).
 */
@ApplicationScoped
public class PipelinedRedis {

    private static final Logger LOG = Logger.getLogger(PipelinedRedis.class);

    private final Redis client;
    private final Duration timeout;
    private final AtomicReference<Uni<RedisConnection>> connection = new AtomicReference<>();

    public PipelinedRedis(Redis client, @ConfigProperty(name = "quarkus.redis.timeout", defaultValue = "10s") Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    public Uni<Response> execute(Command command, String... args) {
        Request request = Request.cmd(command);
        for (String arg : args) {
            request.arg(arg);
        }
        Uni<RedisConnection> used = connection();
        return used.flatMap(open -> open.send(request))
                .ifNoItem().after(timeout).failWith(() -> new RedisTimeoutException(command, timeout))
                // A connection that stays silent may be half-open: the next command tries another.
                .onFailure(RedisTimeoutException.class).invoke(() -> connection.compareAndSet(used, null));
    }

    private Uni<RedisConnection> connection() {
        Uni<RedisConnection> current = connection.get();
        if (current != null) {
            return current;
        }
        Uni<RedisConnection> opening = client.connect()
                .invoke(opened -> opened.exceptionHandler(failure -> forget(opened, failure))
                        .endHandler(() -> forget(opened, null)))
                .onFailure().invoke(failure -> connection.set(null))
                .memoize().indefinitely();
        return connection.compareAndSet(null, opening) ? opening : connection();
    }

    private void forget(RedisConnection failed, Throwable failure) {
        LOG.debugf("pipelined Redis connection ended (%s); the next command opens another",
                failure == null ? "closed" : failure.getMessage());
        Uni<RedisConnection> current = connection.get();
        if (current != null) {
            current.subscribe().with(open -> {
                if (open == failed) {
                    connection.compareAndSet(current, null);
                }
                failed.closeAndForget();
            }, ignored -> connection.compareAndSet(current, null));
        }
    }

    /** A command that got no reply in time: Redis is stuck or the connection silently dead. */
    public static final class RedisTimeoutException extends RuntimeException {
        RedisTimeoutException(Command command, Duration timeout) {
            super("no reply to " + command + " within " + timeout.toMillis() + " ms");
        }
    }
}
