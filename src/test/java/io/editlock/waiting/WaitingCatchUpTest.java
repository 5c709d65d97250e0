package io.editlock.waiting;

import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.LockService;
import io.editlock.lock.Page;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Latches;
import io.editlock.support.PubSubOutage;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §14: the head of a line is granted the page in the step that frees it. When that
 * grant's event is published while the node's subscription is down (here: cut off with {@code CLIENT
 * KILL TYPE pubsub}), the waiter is still told once the subscription is back, and does not hold a page
 * they do not know about; a configurator granted so replaces the waiter's other configurator as a heard
 * grant does (§2).
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

    @Inject
    LockKeys keys;

    @Inject
    PipelinedRedis pipelined;

    @Inject
    WaitingState state;

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

    /**
     * Tom's wait-for has taken its place, but its reply has not reached the node when the node misses
     * the grant from the line and catches up: the catch-up does not know of the place yet. The node
     * looks at that line once the reply has come, and Tom is told of his grant.
     */
    @Test
    void aGrantMissedWhileAWaitForWasOnItsWayIsToldWhenItsReplyComes() {
        // A scene of its own for each attempt: a release the node heard after all cannot be taken back.
        HeldWaitFor held = PubSubOutage.missed(
                redis,
                keys.lockEventsChannel(),
                this::tomWaitsHeldBack,
                scene -> scene.saraUnlocksInProcess(locks),
                scene -> scene.replyGoesOn().countDown());
        try {
            await("the node catches up").atMost(WAIT).until(() -> state.catchUps() > held.catchUpsBefore());
        } finally {
            held.replyGoesOn().countDown();
        }

        assertEquals("queued", held.reply().join().path("event").asText());
        JsonNode granted = held.tom().awaitEvent(WaitingCatchUpTest::queuedGrant, WAIT);
        assertEquals(
                held.tomUser().id(),
                granted.path("data").path("lock").path("ownerUserId").asText());
        WsClient.stays(
                () -> held.tom().frames(WaitingCatchUpTest::queuedGrant).size() == 1,
                Duration.ofSeconds(1),
                "Tom is told once");
        await("the node no longer keeps Tom's place")
                .atMost(WAIT)
                .until(() -> !state.waits(held.tomUser().id(), held.c(), "i:" + held.item() + ":filters"));
    }

    /**
     * Sara holds an item's filters page; Tom's wait-for for it has taken its place, and its reply is
     * held before it reaches the node until {@code replyGoesOn}; with the node's count of catch-ups from
     * before.
     */
    private record HeldWaitFor(
            TestUser saraUser,
            WsClient sara,
            TestUser tomUser,
            WsClient tom,
            long c,
            long item,
            long catchUpsBefore,
            CountDownLatch replyGoesOn,
            CompletableFuture<JsonNode> reply) {

        void saraUnlocksInProcess(LockService locks) {
            assertInstanceOf(
                    ReleaseResult.Released.class,
                    locks.release(Resource.itemPage(item, Page.FILTERS), saraUser.id(), sara.socketId())
                            .await()
                            .atMost(WAIT));
        }
    }

    private HeldWaitFor tomWaitsHeldBack() {
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = sockets.connect(base, saraUser);
        WsClient tom = sockets.connect(base, tomUser);
        sara.request("lock-item-subresource", page(item));

        CountDownLatch answered = new CountDownLatch(1);
        CountDownLatch replyGoesOn = new CountDownLatch(1);
        ScriptHooks.install(pipelined).afterNextBlocking("wait_for", () -> {
            answered.countDown();
            Latches.awaitOpen(replyGoesOn, "letting the reply go on");
        });
        long catchUpsBefore = state.catchUps();
        CompletableFuture<JsonNode> reply = CompletableFuture.supplyAsync(() -> tom.request("wait-for", about(item)));
        Latches.awaitOpen(answered, "the wait-for");
        return new HeldWaitFor(saraUser, sara, tomUser, tom, c, item, catchUpsBefore, replyGoesOn, reply);
    }

    @Test
    void aConfiguratorGrantedWhileTheNodeListenedToNothingReplacesTheWaitersOtherConfigurator() {
        Scene scene = PubSubOutage.missed(redis, keys.lockEventsChannel(), Scene::new, Scene::saraUnlocksInProcess);

        JsonNode granted = scene.tom.awaitEvent(WaitingCatchUpTest::queuedGrant, WAIT);
        assertEquals(
                scene.wanted,
                granted.path("data")
                        .path("lock")
                        .path("resource")
                        .path("configuratorId")
                        .asLong(),
                granted.toString());
        JsonNode lost = scene.tom.awaitEvent(
                frame -> "lock-lost".equals(frame.path("event").asText())
                        && frame.path("data")
                                        .path("resource")
                                        .path("configuratorId")
                                        .asLong()
                                == scene.held,
                WAIT);
        assertEquals("replaced", lost.path("data").path("reason").asText(), lost.toString());
        assertEquals(
                "lock-acquired",
                scene.omar
                        .request("lock-configurator", Map.of("configuratorId", scene.held))
                        .path("event")
                        .asText(),
                "Tom's previous configurator must be free for others");
    }

    private static boolean queuedGrant(JsonNode frame) {
        return "lock-acquired".equals(frame.path("event").asText())
                && frame.path("data").path("queued").asBoolean();
    }

    /** Tom holds one configurator and waits in line for Sara's. */
    private final class Scene {
        final TestUser saraUser = DemoLogin.user("Sara");
        final TestUser tomUser = DemoLogin.user("Tom");
        final long held = Api.configurator(tomUser);
        final long wanted = Api.configurator(saraUser);
        final WsClient sara = sockets.connect(base, saraUser);
        final WsClient tom = sockets.connect(base, tomUser);
        final WsClient omar = sockets.connect(base, DemoLogin.user("Omar"));

        Scene() {
            assertEquals("lock-acquired", event(tom.request("lock-configurator", Map.of("configuratorId", held))));
            assertEquals("lock-acquired", event(sara.request("lock-configurator", Map.of("configuratorId", wanted))));
            assertEquals(
                    "queued",
                    event(tom.request(
                            "wait-for", Map.of("resource", Map.of("type", "configurator", "configuratorId", wanted)))));
        }

        void saraUnlocksInProcess() {
            assertInstanceOf(
                    ReleaseResult.Released.class,
                    locks.release(Resource.configurator(wanted), saraUser.id(), sara.socketId())
                            .await()
                            .atMost(WAIT));
        }
    }

    private static String event(JsonNode frame) {
        return frame.path("event").asText();
    }
}
