package io.editlock.waiting;

import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.LockService;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §14: the grant that serves a waiter travels apart from the reply to their
 * {@code wait-for}, and can be heard first when the line moves on the moment the user joined it. The
 * place it ended is then over: the node must not keep it after the reply (it would tell the user of it
 * again when it catches up, or swallow a later end of a place).
 */
@QuarkusTest
class GrantBeforeQueuedReplyTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    PipelinedRedis redis;

    @Inject
    LockService locks;

    @Inject
    WaitingState state;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void aPlaceTheLineServedBeforeItsReplyWasReadIsNotKept() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        Resource filters = Resource.itemPage(item, Page.FILTERS);
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        WsClient sara = sockets.connect(base, saraUser);
        WsClient tom = sockets.connect(base, tomUser);
        assertEquals(
                "lock-acquired",
                sara.request("lock-item-subresource", page(item)).path("event").asText());
        // Right after wait_for answers, before the node reads its reply: Sara leaves, the line serves
        // Tom, and Tom hears of it.
        ScriptHooks.install(redis)
                .afterNext(
                        "wait_for",
                        () -> locks.release(filters, saraUser.id(), sara.socketId())
                                .chain(() -> Uni.createFrom()
                                        .item(() -> tom.awaitEvent(GrantBeforeQueuedReplyTest::queuedGrant, WAIT))
                                        .runSubscriptionOn(Infrastructure.getDefaultWorkerPool()))
                                .replaceWithVoid());

        JsonNode reply = tom.request("wait-for", about(item));

        assertEquals("queued", reply.path("event").asText(), reply.toString());
        assertFalse(
                state.waits(tomUser.id(), c, filters.field()),
                "the node must not keep a place the line has already served");
    }

    private static boolean queuedGrant(JsonNode frame) {
        return "lock-acquired".equals(frame.path("event").asText())
                && frame.path("data").path("queued").asBoolean();
    }
}
