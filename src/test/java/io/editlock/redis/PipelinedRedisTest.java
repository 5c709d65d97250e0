package io.editlock.redis;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * An event loop's commands share one pipelined connection: every command gets its own reply, in the
 * order it was issued, also when thousands are in flight at once and behind a command that keeps
 * the connection busy in Redis.
 */
@QuarkusTest
class PipelinedRedisTest {

    @Inject
    PipelinedRedis redis;

    @Inject
    Vertx vertx;

    @Inject
    ReactiveRedisDataSource dataSource;

    @Inject
    Redis defaultClient;

    @Inject
    RedisOptionsCapture options;

    @Inject
    MeterRegistry meters;

    /**
     * Commands issued before their connection is open go out in the order they were issued, on an
     * event loop's connection and on the shared one: a socket's index and its expiry, written one
     * after the other without waiting, must not reach Redis the other way round.
     */
    @Test
    void commandsIssuedWhileTheConnectionOpensKeepTheirOrder() throws Exception {
        // A pipeline of its own: its connections are not open yet, whatever ran before.
        PipelinedRedis fresh = new PipelinedRedis(defaultClient, options, vertx, meters, Duration.ofSeconds(10));
        try {
            String onLoop = "{test}:order:loop:" + UUID.randomUUID();
            onEventLoop(() -> pushAll(fresh, onLoop));
            assertEquals(numbers(), read(onLoop), "an event loop's commands, in the order issued");

            String shared = "{test}:order:shared:" + UUID.randomUUID();
            pushAll(fresh, shared).await().atMost(Duration.ofSeconds(20));
            assertEquals(numbers(), read(shared), "a worker's commands, in the order issued");
        } finally {
            fresh.close(new ShutdownEvent());
        }
    }

    /**
     * A command's reply comes back on the Vert.x context it was issued from, also when it waited for
     * its connection to open: a REST request's next step runs in its own request (its request-scoped
     * guard), not in whatever context the connection opened on.
     */
    @Test
    void aCommandThatWaitedForItsConnectionIsAnsweredOnTheContextItCameFrom() throws Exception {
        PipelinedRedis fresh = new PipelinedRedis(defaultClient, options, vertx, meters, Duration.ofSeconds(10));
        try {
            Context loop = vertx.getDelegate().getOrCreateContext();
            List<Context> requests = List.of(
                    VertxContext.createNewDuplicatedContext(loop),
                    VertxContext.createNewDuplicatedContext(loop),
                    VertxContext.createNewDuplicatedContext(loop));
            List<CompletableFuture<Boolean>> answeredAtHome = new CopyOnWriteArrayList<>();
            loop.runOnContext(ignored -> {
                for (Context request : requests) {
                    CompletableFuture<Boolean> atHome = new CompletableFuture<>();
                    answeredAtHome.add(atHome);
                    request.runOnContext(issue -> fresh.execute(Command.PING)
                            .subscribe()
                            .with(pong -> atHome.complete(isCurrent(request)), atHome::completeExceptionally));
                }
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> answeredAtHome.size() == requests.size());
            for (CompletableFuture<Boolean> atHome : answeredAtHome) {
                assertTrue(atHome.get(20, TimeUnit.SECONDS), "a reply must come back on the context of its command");
            }
        } finally {
            fresh.close(new ShutdownEvent());
        }
    }

    private static boolean isCurrent(Context context) {
        var current = Vertx.currentContext();
        return current != null && current.getDelegate() == context;
    }

    private static Uni<List<Response>> pushAll(PipelinedRedis pipeline, String list) {
        List<Uni<Response>> sent = new ArrayList<>();
        for (String number : numbers()) {
            sent.add(pipeline.execute(Command.RPUSH, list, number));
        }
        return Uni.join().all(sent).andFailFast();
    }

    private static List<String> numbers() {
        return IntStream.rangeClosed(1, 20).mapToObj(String::valueOf).toList();
    }

    private List<String> read(String list) {
        Response items =
                dataSource.execute(Command.LRANGE, list, "0", "-1").await().atMost(Duration.ofSeconds(5));
        List<String> read = new ArrayList<>();
        items.forEach(item -> read.add(item.toString()));
        return read;
    }

    @Test
    void manyCommandsIssuedAtOnceOnOneEventLoopGetTheirOwnRepliesInOrder() throws Exception {
        String key = "{test}:pipelined:" + UUID.randomUUID();
        int commands = 2_000;
        List<Long> replies = onEventLoop(() -> {
            List<Uni<Response>> sent = new ArrayList<>();
            for (int i = 0; i < commands; i++) {
                sent.add(redis.execute(Command.INCR, key));
            }
            return Uni.join()
                    .all(sent)
                    .andFailFast()
                    .map(all -> all.stream().map(Response::toLong).toList());
        });
        assertEquals(commands, replies.size());
        for (int i = 0; i < commands; i++) {
            assertEquals(i + 1, replies.get(i), "reply " + i + " belongs to command " + i);
        }
    }

    @Test
    void commandsBehindABusyConnectionAllGetTheirReplies() throws Exception {
        String list = "{test}:pipelined:list:" + UUID.randomUUID();
        String counter = "{test}:pipelined:counter:" + UUID.randomUUID();
        List<Long> replies = onEventLoop(() -> {
            // BLPOP keeps the connection busy in Redis for 300 ms: the INCRs after it wait behind it.
            Uni<Response> busy = redis.execute(Command.BLPOP, list, "0.3");
            List<Uni<Response>> behind = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                behind.add(redis.execute(Command.INCR, counter));
            }
            return busy.flatMap(nothing -> {
                        assertNull(nothing, "nothing was pushed: BLPOP timed out");
                        return Uni.join().all(behind).andFailFast();
                    })
                    .map(all -> all.stream().map(Response::toLong).toList());
        });
        assertEquals(50, replies.size());
        assertEquals(50L, replies.get(49));
        assertTrue(replies.stream().distinct().count() == 50, "every INCR ran once: " + replies);
    }

    /**
     * While Redis drops the connections again and again, commands issued at once from many threads
     * and event loops, each a chain of two, wait for the connection being reopened: every chain that
     * completes gets its own replies in its own stages, and none fails with another stage's item. A
     * chain caught by a kill may fail (its connection is gone); it is not counted.
     */
    @Test
    void chainsFromManyThreadsWhileConnectionsReopenGetTheirOwnReplies() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<Throwable> wrong = new CopyOnWriteArrayList<>();
        AtomicInteger completed = new AtomicInteger();
        try {
            for (int round = 0; round < 30; round++) {
                killClientConnections();
                List<CompletableFuture<Void>> chains = new ArrayList<>();
                for (int i = 0; i < 64; i++) {
                    String key = "{test}:reopen:" + UUID.randomUUID();
                    Supplier<Uni<long[]>> chain = () -> redis.execute(Command.INCR, key)
                            .map(Response::toLong)
                            .flatMap(first -> redis.execute(Command.INCRBY, key, "10")
                                    .map(Response::toLong)
                                    .map(second -> new long[] {first, second}));
                    CompletableFuture<Void> done = new CompletableFuture<>();
                    Runnable start = () -> chain.get()
                            .subscribe()
                            .with(
                                    replies -> {
                                        if (replies[0] != 1 || replies[1] != 11) {
                                            wrong.add(new AssertionError(
                                                    "replies of another command: " + replies[0] + ", " + replies[1]));
                                        }
                                        completed.incrementAndGet();
                                        done.complete(null);
                                    },
                                    failure -> {
                                        if (failure instanceof ClassCastException) {
                                            wrong.add(failure);
                                        }
                                        done.complete(null);
                                    });
                    if (i % 2 == 0) {
                        threads.execute(start);
                    } else {
                        vertx.getDelegate().getOrCreateContext().runOnContext(ignored -> start.run());
                    }
                    chains.add(done);
                }
                CompletableFuture.allOf(chains.toArray(CompletableFuture[]::new))
                        .get(20, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals(List.of(), wrong, "every chain got its own replies");
        assertTrue(completed.get() > 0, "some chains completed");
    }

    /**
     * A connection tells its end only to the handlers it has at that moment. One that Redis dropped
     * before the pipeline's handlers were on (its connect's result still on its way to the thread that
     * asked) must not be kept: the commands after it get a connection that works, not "Connection is
     * closed" at once for as long as the node runs.
     */
    @Test
    void aConnectionThatEndedBeforeItWasHandedOverIsNotKept() {
        AtomicBoolean first = new AtomicBoolean(true);
        Redis endsUnheard = new Redis(defaultClient.getDelegate()) {
            @Override
            public Uni<RedisConnection> connect() {
                Uni<RedisConnection> connection = super.connect();
                return first.getAndSet(false) ? connection.call(PipelinedRedisTest.this::killUnheard) : connection;
            }
        };
        // No options of the default client: the shared lane borrows its connections from endsUnheard.
        PipelinedRedis fresh =
                new PipelinedRedis(endsUnheard, new RedisOptionsCapture(), vertx, meters, Duration.ofSeconds(10));
        try {
            // The command that waited for the dropped connection may fail; the next one must not.
            fresh.execute(Command.PING).onFailure().recoverWithNull().await().atMost(Duration.ofSeconds(20));
            Response pong = fresh.execute(Command.PING).await().atMost(Duration.ofSeconds(20));
            assertEquals("PONG", pong.toString());
        } finally {
            fresh.close(new ShutdownEvent());
        }
    }

    /** Kills the connection and waits for its end, told to a handler that the pipeline's then replace. */
    private Uni<Void> killUnheard(RedisConnection connection) {
        CompletableFuture<Void> ended = new CompletableFuture<>();
        connection.endHandler(() -> ended.complete(null));
        return connection
                .send(Request.cmd(Command.CLIENT).arg("ID"))
                .flatMap(id -> dataSource.execute(Command.CLIENT, "KILL", "ID", id.toString()))
                .flatMap(killed -> Uni.createFrom().completionStage(ended));
    }

    private void killClientConnections() {
        dataSource
                .execute(Command.CLIENT, "KILL", "TYPE", "normal", "SKIPME", "yes")
                .await()
                .atMost(Duration.ofSeconds(5));
    }

    private <T> T onEventLoop(Supplier<Uni<T>> work) throws Exception {
        Context loop = vertx.getDelegate().getOrCreateContext();
        assertTrue(loop.isEventLoopContext());
        CompletableFuture<T> result = new CompletableFuture<>();
        loop.runOnContext(ignored -> work.get().subscribe().with(result::complete, result::completeExceptionally));
        return result.get(Duration.ofSeconds(20).toMillis(), TimeUnit.MILLISECONDS);
    }
}
