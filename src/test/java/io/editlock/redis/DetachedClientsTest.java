package io.editlock.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.TestRedis;
import io.vertx.core.AbstractVerticle;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.redis.client.RedisOptions;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The HTTP server's event loops run verticles, and a node stopping undeploys them before its last
 * Redis commands are through: a client that a WebSocket handler asked for must not go with them.
 */
class DetachedClientsTest {

    static final Duration AT_MOST = Duration.ofSeconds(5);

    static RedisProcess redis;
    static Vertx vertx;
    static RedisOptions options;

    @BeforeAll
    static void start() {
        redis = TestRedis.start();
        vertx = Vertx.vertx();
        options = new RedisOptions().setConnectionString(redis.url());
    }

    @AfterAll
    static void stop() {
        vertx.closeAndAwait();
        redis.close();
    }

    @Test
    void aClientAskedForInAVerticleOutlivesTheVerticle() throws Exception {
        AtomicReference<CompletionStage<Redis>> detached = new AtomicReference<>();
        AtomicReference<Redis> direct = new AtomicReference<>();
        try (DetachedClients clients = new DetachedClients()) {
            String verticle = vertx.getDelegate()
                    .deployVerticle(new AbstractVerticle() {
                        @Override
                        public void start() {
                            detached.set(clients.create(() -> Redis.createClient(DetachedClientsTest.vertx, options)));
                            direct.set(Redis.createClient(DetachedClientsTest.vertx, options));
                        }
                    })
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(AT_MOST.toSeconds(), TimeUnit.SECONDS);
            Redis client = detached.get().toCompletableFuture().get(AT_MOST.toSeconds(), TimeUnit.SECONDS);

            vertx.undeploy(verticle).await().atMost(AT_MOST);

            assertEquals("PONG", ping(client), "created on the clients' own thread: still open");
            assertThrows(
                    IllegalStateException.class,
                    () -> ping(direct.get()),
                    "created in the verticle: closed with it, which is what DetachedClients avoids");
            client.close();
        }
    }

    @Test
    void onceClosedItCreatesNothingMore() {
        DetachedClients clients = new DetachedClients();
        clients.close();

        CompletionStage<Redis> refused = clients.create(() -> Redis.createClient(vertx, options));

        assertThrows(
                ExecutionException.class,
                () -> refused.toCompletableFuture().get(AT_MOST.toSeconds(), TimeUnit.SECONDS));
    }

    private static String ping(Redis client) {
        return client.send(Request.cmd(Command.PING)).await().atMost(AT_MOST).toString();
    }
}
