package io.editlock.redis;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.impl.PooledRedisConnection;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The lock path's commands are pipelined on one Redis connection per event loop instead of each
 * borrowing a pooled connection for its whole round trip. A pooled client keeps all its connections
 * on the one event loop it was created on, so every command and every reply crossed threads, every
 * command was its own write on both sides, and at most pool-size commands were in flight. Here a
 * socket's commands go out and come back on the socket's own event loop, and the commands that the
 * replies of one read set off leave together in one write (Vert.x flushes once a read is done).
 *
 * <p>Callers that are not on an event loop (workers, tests) share the default client's pool. A
 * connection that fails is dropped and the next command opens another; commands in flight on it
 * fail, and their requests are answered UNAVAILABLE.
 */
@ApplicationScoped
public class PipelinedRedis {

    private static final Logger LOG = Logger.getLogger(PipelinedRedis.class);

    private final Redis defaultClient;
    private final RedisOptionsCapture options;
    private final Vertx vertx;
    private final Duration timeout;
    private final MeterRegistry meters;
    private final Map<Thread, Lane> lanes = new ConcurrentHashMap<>();
    private final Lane shared;

    public PipelinedRedis(Redis defaultClient, RedisOptionsCapture options, Vertx vertx, MeterRegistry meters,
            @ConfigProperty(name = "quarkus.redis.timeout", defaultValue = "10s") Duration timeout) {
        this.meters = meters;
        this.defaultClient = defaultClient;
        this.options = options;
        this.vertx = vertx;
        this.timeout = timeout;
        this.shared = new Lane(defaultClient, false);
    }

    public Uni<Response> execute(Command command, String... args) {
        Request request = Request.cmd(command);
        for (String arg : args) {
            request.arg(arg);
        }
        Lane lane = lane();
        Uni<RedisConnection> used = lane.connection();
        return used.flatMap(open -> open.send(request))
                .ifNoItem().after(timeout).failWith(() -> new RedisTimeoutException(command, timeout))
                // A connection that stays silent may be half-open: the next command opens another.
                .onFailure(RedisTimeoutException.class).invoke(() -> lane.drop(used));
    }

    @PreDestroy
    void close() {
        lanes.values().forEach(Lane::close);
    }

    private Lane lane() {
        if (!Context.isOnEventLoopThread()) {
            return shared;
        }
        Lane own = lanes.get(Thread.currentThread());
        if (own != null) {
            return own;
        }
        // The default client's options are known once it exists (its first command creates it).
        return options.defaultClient()
                .map(base -> lanes.computeIfAbsent(Thread.currentThread(), thread -> new Lane(clientOnThisEventLoop(base), true)))
                .orElse(shared);
    }

    /**
     * Created on the calling event loop, which its connections then belong to. Its pool and its
     * connections are metered under names of their own, not again under the default client's.
     */
    private Redis clientOnThisEventLoop(RedisOptions base) {
        String lane = "editlock-pipeline-" + Thread.currentThread().getName();
        // A client of this name from an earlier start in the same JVM (a dev-mode reload, the test
        // suite) may still be closing, its connection stuck: its meters would turn this client's
        // into a refused registration, and the metrics would describe a client that is gone.
        meters.getMeters().stream().filter(meter -> lane.equals(meter.getId().getTag("clientName"))).forEach(meters::remove);
        base.setPoolName(lane);
        base.setMetricsName("redis|" + lane);
        base.setMaxPoolSize(2);
        return Redis.createClient(vertx, base);
    }

    /** One client's long-lived connection, shared by every command sent through it. */
    private static final class Lane {
        private final Redis client;
        private final boolean owned;
        private final AtomicReference<Uni<RedisConnection>> connection = new AtomicReference<>();

        Lane(Redis client, boolean owned) {
            this.client = client;
            this.owned = owned;
        }

        Uni<RedisConnection> connection() {
            Uni<RedisConnection> current = connection.get();
            if (current != null) {
                return current;
            }
            AtomicReference<Uni<RedisConnection>> self = new AtomicReference<>();
            Uni<RedisConnection> opening = client.connect()
                    .invoke(opened -> opened.exceptionHandler(failure -> ended(self.get(), opened, failure))
                            .endHandler(() -> ended(self.get(), opened, null)))
                    .onFailure().invoke(failure -> connection.compareAndSet(self.get(), null))
                    .memoize().indefinitely();
            self.set(opening);
            return connection.compareAndSet(null, opening) ? opening : connection();
        }

        void drop(Uni<RedisConnection> used) {
            if (connection.compareAndSet(used, null)) {
                used.subscribe().with(Lane::discard, failure -> { });
            }
        }

        /**
         * Closing a pooled connection only hands it back to its pool, which would hand the same silent
         * (half-open) connection out again: it has to be closed for good, so that the pool opens another.
         */
        private static void discard(RedisConnection silent) {
            if (silent.getDelegate() instanceof PooledRedisConnection pooled) {
                pooled.actual().forceClose();
            }
            silent.closeAndForget();
        }

        private void ended(Uni<RedisConnection> which, RedisConnection opened, Throwable failure) {
            LOG.debugf("pipelined Redis connection ended (%s); the next command opens another",
                    failure == null ? "closed" : failure.getMessage());
            connection.compareAndSet(which, null);
            opened.closeAndForget();
        }

        void close() {
            if (owned) {
                client.close();
            }
        }
    }

    /** A command that got no reply in time: Redis is stuck or the connection silently dead. */
    public static final class RedisTimeoutException extends RuntimeException {
        RedisTimeoutException(Command command, Duration timeout) {
            super("no reply to " + command + " within " + timeout.toMillis() + " ms");
        }
    }
}
