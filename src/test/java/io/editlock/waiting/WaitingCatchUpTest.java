package io.editlock.waiting;

import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.LockService;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §14: the head of a line is granted the page in the step that frees it. When that
 * grant's event is published while the node's subscription is down (here: cut off with {@code CLIENT
 * KILL TYPE pubsub}), the waiter is still told once the subscription is back, and does not hold a page
 * they do not know about.
 */
@QuarkusTest
class WaitingCatchUpTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockService locks;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void aGrantFromTheLineMissedWhileTheSubscriptionWasDownIsToldWhenItIsBack() {
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = sockets.connect(base, saraUser);
        WsClient tom = sockets.connect(base, tomUser);
        sara.request("lock-item-subresource", page(item));
        assertEquals(
                "queued", tom.request("wait-for", about(item)).path("event").asText());

        // Cut off, and the page freed at once, in-process: the grant's event finds nobody listening.
        redis.execute(Command.CLIENT, "KILL", "TYPE", "pubsub").await().atMost(WAIT);
        locks.release(Resource.itemPage(item, Page.FILTERS), saraUser.id(), sara.socketId())
                .await()
                .atMost(WAIT);

        JsonNode granted = tom.awaitEvent(
                frame -> frame.path("event").asText().equals("lock-acquired")
                        && frame.path("data").path("queued").asBoolean(),
                WAIT);
        assertEquals(
                tomUser.id(),
                granted.path("data").path("lock").path("ownerUserId").asText());
        assertEquals(
                item,
                granted.path("data")
                        .path("lock")
                        .path("resource")
                        .path("itemId")
                        .asLong());
    }
}
