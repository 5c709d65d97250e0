package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.ScriptHooks;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §8: a keyed create whose client went away while it was in progress leaves its key
 * to the retry. 409 is only for a request that is still in progress; one that ended because nobody
 * waits for it any more is not.
 */
@QuarkusTest
class AbandonedKeyedCreateTest {

    private static final Duration HELD = Duration.ofSeconds(2);

    @TestHTTPResource("/")
    URI base;

    @Inject
    PipelinedRedis redis;

    @Inject
    ReactiveRedisDataSource store;

    @Inject
    LockKeys keys;

    @Test
    void aCreateWhoseClientWentAwayLeavesTheKeyToTheRetry() throws Exception {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        String route = "/api/configurators/" + c + "/items";
        String body = "{\"name\":\"Frame\"}";
        String key = UUID.randomUUID().toString();
        CompletableFuture<Void> inProgress = new CompletableFuture<>();
        ScriptHooks.install(redis).beforeNext("add_item", () -> {
            inProgress.complete(null);
            return Uni.createFrom().voidItem().onItem().delayIt().by(HELD);
        });

        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + route + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\nAuthorization: Bearer "
                            + sara.token() + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + key
                            + "\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            inProgress.get(10, TimeUnit.SECONDS);
        } // the client goes away while the create waits

        // A 409 is right while the abandoned request still waits in its step; not after that.
        Response retry = await().atMost(HELD.plusSeconds(5))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> as(sara).header("Idempotency-Key", key).body(body).post(route),
                        r -> r.statusCode() != 409);

        assertEquals(201, retry.statusCode(), retry.asString());
        assertEquals(
                1,
                store.execute(Command.HLEN, keys.items(c))
                        .await()
                        .atMost(Duration.ofSeconds(5))
                        .toInteger(),
                "exactly one item was created");
    }
}
