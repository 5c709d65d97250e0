package io.editlock.redis;

import io.editlock.config.StartRefusal;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Context;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.RedisOptions;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The lock path's commands are pipelined on one Redis connection per event loop instead of each
 * borrowing a pooled connection for its whole round trip. A pooled client keeps all its connections
 * on the one event loop it was created on, so every command was its own write on both sides, and at
 * most pool-size commands were in flight. Here each event loop sends on a connection of its own, a
 * command's reply comes back on the context it was sent from, and the commands that the replies of
 * one read set off leave together in one write (Vert.x flushes once a read is done). The connections'
 * own I/O runs on the event loop Vert.x gives their clients, which with this Vert.x is one loop for
 * all of them, not each caller's: a reply crosses to its caller's loop.
 * Commands issued one after the other on a thread reach Redis in that order, also while their
 * connection is still opening.
 *
 * <p>Callers that are not on an event loop (workers, tests) share one more such connection. A
 * connection that fails, or stays silent past the timeout, is closed for good and the next command
 * opens another; commands in flight on it fail, and their requests are answered UNAVAILABLE.
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
    private final DetachedClients clients = new DetachedClients();
    private final StoreRefusals refusals = new StoreRefusals();
    private final OpenFailures openFailures = new OpenFailures();
    private volatile boolean stopping;

    public PipelinedRedis(
            Redis defaultClient,
            RedisOptionsCapture options,
            Vertx vertx,
            MeterRegistry meters,
            @ConfigProperty(name = "quarkus.redis.timeout", defaultValue = "10s") Duration timeout) {
        this.meters = meters;
        this.defaultClient = defaultClient;
        this.options = options;
        this.vertx = vertx;
        this.timeout = timeout;
        this.shared = new Lane(() -> options.defaultClient().map(base -> ownClient(base, "editlock-pipeline-shared")));
    }

    /**
     * A timeout of zero or less fails every command at once: the node would start and refuse everything
     * with nothing in its log but each failure. So the start fails instead, naming the setting.
     */
    void checkTimeout(@Observes @Priority(1) StartupEvent started) {
        if (timeout.isZero() || timeout.isNegative()) {
            throw StartRefusal.told(new IllegalStateException("quarkus.redis.timeout is " + timeout
                    + ": it must be longer than zero, or every Redis command fails at once"));
        }
    }

    /**
     * The command goes out when the Uni is subscribed, each time it is: on the connection its lane has
     * then. A retry (a give-back tried until it lands) must not go back to a connection given up.
     */
    public Uni<Response> execute(Command command, String... args) {
        Request request = Request.cmd(command);
        for (String arg : args) {
            request.arg(arg);
        }
        return Uni.createFrom().deferred(() -> send(command, request));
    }

    private Uni<Response> send(Command command, Request request) {
        Lane lane = lane();
        Connection used = lane.connection();
        return used.opened()
                .flatMap(open -> open.send(request))
                .ifNoItem()
                .after(timeout)
                .failWith(() -> new RedisTimeoutException(command, timeout))
                // A connection that stays silent may be half-open: the next command opens another.
                .onFailure(RedisTimeoutException.class)
                .invoke(() -> lane.drop(used))
                .onFailure()
                .invoke(failure -> refusals.failed(command, failure));
    }

    /**
     * The node's Redis work is over once its sockets are handed over ({@code NodeStop}, before this
     * event). The lanes' clients are closed here, early in the shutdown, not as the beans are destroyed:
     * a client closes asynchronously (a cluster client, for one, may still be asking another node for
     * its slots), and right after the beans Vert.x stops its event loops, under anything still going.
     */
    void close(@Observes @Priority(Integer.MAX_VALUE) ShutdownEvent stopped) {
        stopping = true;
        clients.close();
        lanes.values().forEach(Lane::close);
        shared.close();
    }

    /**
     * Why the latest connection failed to open, while none has opened since: a command that waits for
     * one only times out, and its failure says nothing of why.
     */
    public Optional<String> openFailure() {
        return openFailures.lastReason();
    }

    /** The failure and its causes in words, never just "null". */
    public static String describe(Throwable failure) {
        return OpenFailures.describe(failure);
    }

    /**
     * Logs why a connection did not open (each kind once a minute). Redis's error reply is used when the failure
     * carries it; when it does not (the handshake's reply was dropped, the socket reset), a probe hears
     * what Redis says to a new connection, so that its refusal reaches the log in its own words.
     */
    private void reportOpenFailure(Throwable failure) {
        if (stopping) {
            return;
        }
        Optional<String> reply = OpenFailures.redisReply(failure);
        if (reply.isPresent()) {
            openFailures.log(reply.get(), true);
            return;
        }
        if (!openFailures.probeDue()) {
            openFailures.noted(failure);
            return;
        }
        Optional<RedisOptions> base = options.defaultClient();
        if (base.isEmpty()) {
            openFailures.log(describe(failure), false);
            return;
        }
        String endpoint = OpenFailures.failedEndpoint(failure).orElse(base.get().getEndpoint());
        clients.create(() -> GreetingProbe.listen(vertx.getDelegate(), base.get(), endpoint, probeWait()))
                .thenCompose(probe -> probe)
                .whenComplete((heard, notHeard) -> {
                    if (heard != null && heard.refusal().isPresent()) {
                        openFailures.log(heard.refusal().get(), true);
                        return;
                    }
                    String described = describe(failure);
                    Optional<String> why = heard == null
                            ? Optional.empty()
                            : heard.failure().filter(reason -> !described.contains(reason));
                    openFailures.log(
                            why.map(reason -> described + "; a connection of its own to "
                                            + UrlPasswordFilter.hide(endpoint) + " failed: " + reason)
                                    .orElse(described),
                            false);
                });
    }

    /** Redis refuses a connection as it accepts it: a short wait hears it, and costs little when it does not. */
    private Duration probeWait() {
        Duration second = Duration.ofSeconds(1);
        return timeout.compareTo(second) < 0 ? timeout : second;
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
        String name = "editlock-pipeline-" + Thread.currentThread().getName();
        return options.defaultClient()
                .map(base -> lanes.computeIfAbsent(
                        Thread.currentThread(), thread -> new Lane(() -> Optional.of(ownClient(base, name)))))
                .orElse(shared);
    }

    /**
     * A client of its own for one connection (created on {@link DetachedClients}' thread). Its pool and
     * its connection are metered under the lane's name, not again under the default client's.
     * Forgetting the old meters and registering the new ones happen under one lock, so two lanes'
     * clients never register between each other's steps.
     */
    private synchronized Redis ownClient(RedisOptions base, String name) {
        forgetMetersOf(name);
        RedisOptions own = new RedisOptions(base);
        own.setPoolName(name);
        own.setMetricsName("redis|" + name);
        own.setMaxPoolSize(1);
        return Redis.createClient(vertx, own);
    }

    /**
     * A client of this name from before (an earlier connection of the lane, a dev-mode reload, the
     * test suite) may still be closing: its meters would turn this client's into a refused
     * registration, and the metrics would describe a client that is gone. Its connection's meters
     * carry the name as {@code clientName}, its pool's as {@code pool.name}.
     */
    private void forgetMetersOf(String name) {
        meters.getMeters().stream()
                .filter(meter -> name.equals(meter.getId().getTag("clientName"))
                        || name.equals(meter.getId().getTag("pool.name")))
                .forEach(meters::remove);
    }

    /**
     * One long-lived connection, shared by every command sent through it. Each connection comes from
     * a client of its own, so that a silent (half-open) one can be closed for good by closing its
     * client: closing a pooled connection only hands it back to its pool, which would hand the same
     * connection out again. Until the default client's options are known, the shared lane borrows the
     * default client's pooled connection instead.
     */
    private final class Lane {
        private final Supplier<Optional<Redis>> clients;
        private final AtomicReference<Connection> current = new AtomicReference<>();

        Lane(Supplier<Optional<Redis>> clients) {
            this.clients = clients;
        }

        Connection connection() {
            Connection connection = current.get();
            if (connection != null) {
                return connection;
            }
            Connection opening = new Connection();
            if (!current.compareAndSet(null, opening)) {
                return connection();
            }
            opening.open(this);
            return opening;
        }

        void drop(Connection used) {
            if (current.compareAndSet(used, null)) {
                used.close();
            }
        }

        void close() {
            Connection connection = current.getAndSet(null);
            if (connection != null) {
                connection.close();
            }
        }
    }

    /**
     * One connection of a lane, opened when the lane hands it out (on the thread that asked, so an
     * event loop's connection lives on that loop), and the client of its own it came from (none:
     * borrowed from the default client's pool). Commands wait for it through a future, each with a
     * Uni of its own: a memoized Uni that is still opening hands its item to subscribers that may not
     * have been told yet that they subscribed (Mutiny adds them to its list before it tells them), and
     * a stage told in that order takes the item for another's. The commands that wait are let go in
     * the order they came ({@link #waiting}): a future tells its dependents last first, and would send
     * them to Redis the other way round. Each is let go on its caller's Vert.x context, for a command's
     * reply comes back on the context it was sent from: sent from the thread that opened the
     * connection, a REST request's reply would come back outside its request, whose request-scoped
     * state (the guard its filter resolved) its next step would then not find.
     */
    private final class Connection {
        private final CompletableFuture<RedisConnection> opened = new CompletableFuture<>();
        /**
         * Completed once the client's connect is over, either way, which may be after {@link #opened}
         * gave up on it. Redis at its maxclients answers the handshake with an error reply that the
         * Vert.x client drops: its connect is then never over, and the client is never closed.
         */
        private final CompletableFuture<Void> handshakeOver = new CompletableFuture<>();
        /** One per command issued before the connection was open, oldest first; guarded by itself. */
        private final Queue<Waiting> waiting = new ArrayDeque<>();

        private final AtomicBoolean ended = new AtomicBoolean();
        private Redis own;
        private boolean closed;

        Connection() {
            opened.whenComplete(this::letWaitingGo);
        }

        void open(Lane lane) {
            // The connection lives on the event loop that connects: the caller's, not the creator thread's.
            Context caller = Vertx.currentContext();
            clients.create(lane.clients).whenComplete((made, failure) -> {
                if (failure != null) {
                    failed(lane, failure instanceof CompletionException ? failure.getCause() : failure);
                    return;
                }
                if (!adopt(made.orElse(null))) {
                    failed(lane, new IllegalStateException("the Redis connection was closed while it opened"));
                    return;
                }
                Redis client = made.orElse(defaultClient);
                if (caller == null) {
                    connect(lane, client);
                } else {
                    caller.runOnContext(() -> connect(lane, client));
                }
            });
        }

        /** Takes the client of its own over, unless this was closed meanwhile (then it closes it). */
        private synchronized boolean adopt(Redis made) {
            if (closed) {
                if (made != null) {
                    made.close();
                }
                return false;
            }
            own = made;
            return true;
        }

        /**
         * The connect has a deadline of its own: Redis at its maxclients answers the handshake's HELLO
         * with an error reply, which the Vert.x client drops without ever completing the connect, and the
         * commands waiting would then only time out, each, with nothing closing the client.
         */
        private void connect(Lane lane, Redis client) {
            AtomicBoolean settled = new AtomicBoolean();
            long deadline = vertx.setTimer(timeout.toMillis(), late -> {
                if (settled.compareAndSet(false, true)) {
                    openFailed(lane, new RedisTimeoutException("the connection's handshake", timeout));
                }
            });
            client.connect()
                    .subscribe()
                    .with(
                            connection -> {
                                handshakeOver.complete(null);
                                if (!settled.compareAndSet(false, true)) {
                                    QuietClose.close(connection);
                                    return;
                                }
                                vertx.cancelTimer(deadline);
                                connection
                                        .exceptionHandler(failure -> ended(lane, connection, failure))
                                        .endHandler(() -> ended(lane, connection, null));
                                confirm(lane, connection);
                            },
                            failure -> {
                                handshakeOver.complete(null);
                                if (settled.compareAndSet(false, true)) {
                                    vertx.cancelTimer(deadline);
                                    openFailed(lane, failure);
                                }
                            });
        }

        private void openFailed(Lane lane, Throwable failure) {
            failed(lane, failure);
            reportOpenFailure(failure);
        }

        /**
         * A connection tells its end only to the handlers it has then, and the connect's result reaches
         * the thread that asked in a task of its own, after the connection's event loop (its client's,
         * not necessarily the caller's) made it: a connection that Redis drops in between ends unheard,
         * and handed out it would refuse every command at once ("Connection is closed") with no end to
         * drop it on, for good. Once the handlers are on, such a connection refuses a command and any
         * later end is heard: the commands go out once one is answered.
         */
        private void confirm(Lane lane, RedisConnection connection) {
            connection
                    .send(Request.cmd(Command.PING))
                    .subscribe()
                    .with(
                            pong -> {
                                openFailures.opened();
                                opened.complete(connection);
                            },
                            failure -> {
                                QuietClose.close(connection);
                                openFailed(lane, failure);
                            });
        }

        /** A future per command: a command given up (timeout) cancels its own, not the connection. */
        Uni<RedisConnection> opened() {
            return Uni.createFrom().completionStage(this::openedForOne);
        }

        private CompletableFuture<RedisConnection> openedForOne() {
            synchronized (waiting) {
                if (opened.isDone() && waiting.isEmpty()) {
                    return opened.copy();
                }
                CompletableFuture<RedisConnection> mine = new CompletableFuture<>();
                waiting.add(new Waiting(mine, Vertx.currentContext()));
                return mine;
            }
        }

        /**
         * Once the connection is open (or failed), tells the waiting commands one at a time, oldest
         * first, each on its caller's context (one hop to it). A command leaves the queue only as it is
         * told, under the lock: one issued meanwhile waits behind those still in it.
         */
        private void letWaitingGo(RedisConnection connection, Throwable failure) {
            while (true) {
                Waiting next;
                synchronized (waiting) {
                    next = waiting.peek();
                    if (next == null) {
                        return;
                    }
                    if (next.contextless()) {
                        waiting.poll();
                        next.tell(connection, failure);
                        continue;
                    }
                }
                next.caller().runOnContext(() -> {
                    synchronized (waiting) {
                        waiting.poll();
                        next.tell(connection, failure);
                    }
                    letWaitingGo(connection, failure);
                });
                return;
            }
        }

        private void failed(Lane lane, Throwable failure) {
            lane.drop(this);
            opened.completeExceptionally(failure);
        }

        /** A failing connection reports its failure and then its end: it is closed once. */
        private void ended(Lane lane, RedisConnection connection, Throwable failure) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            LOG.debugf(
                    "pipelined Redis connection ended (%s); the next command opens another",
                    failure == null ? "closed" : failure.getMessage());
            lane.drop(this);
            QuietClose.close(connection);
        }

        /**
         * Closed for good: with the client of its own when it has one (once its handshake is over: a
         * connection closed in the middle of it fails with nobody to tell), else handed back to the pool.
         */
        synchronized void close() {
            closed = true;
            if (own != null) {
                Redis client = own;
                CompletableFuture.allOf(opened, handshakeOver).whenComplete((over, failure) -> client.close());
            } else {
                opened.thenAccept(QuietClose::close);
            }
        }
    }

    /**
     * A command that waits for its connection to open, and the Vert.x context it was issued on (null:
     * none, as on a test's thread).
     */
    private record Waiting(CompletableFuture<RedisConnection> opened, Context caller) {

        /** Whether it has no event-loop context to be told on: it is told wherever the connection opened. */
        boolean contextless() {
            return caller == null || !caller.isEventLoopContext();
        }

        /** Lets the command go (it is then sent at once, from where this runs). */
        void tell(RedisConnection connection, Throwable failure) {
            if (failure == null) {
                opened.complete(connection);
            } else {
                opened.completeExceptionally(failure);
            }
        }
    }

    /** A command that got no reply in time: Redis is stuck or the connection silently dead. */
    public static final class RedisTimeoutException extends RuntimeException {
        RedisTimeoutException(Command command, Duration timeout) {
            this(command.toString(), timeout);
        }

        RedisTimeoutException(String awaited, Duration timeout) {
            super("no reply to " + awaited + " within " + timeout.toMillis() + " ms");
        }
    }
}
