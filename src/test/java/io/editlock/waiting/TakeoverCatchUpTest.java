package io.editlock.waiting;

import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static io.editlock.support.Sockets.resource;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Holder;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.session.NodeIdentity;
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
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §13: what happens to a take-over is published to every node, and a node whose
 * subscription is down misses it. Once it is back, its holders learn of the requests that stand
 * against them, and its askers of how theirs ended meanwhile. Sara holds an item's filters page and
 * Tom wants it; the step under test is taken in-process while the node listens to nothing, and Sara
 * and Tom, on their sockets, must hear of it all the same.
 */
@QuarkusTest
class TakeoverCatchUpTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    Takeovers takeovers;

    @Inject
    NodeIdentity node;

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
    void aRequestMadeWhileTheNodeListenedToNothingReachesTheHolderWhenItListensAgain() {
        Scene scene = missed(Scene::new, Scene::tomAsksInProcess);

        JsonNode requested = scene.sara.awaitEvent(event("takeover-requested"), WAIT);
        assertEquals(scene.tomUser.id(), requested.path("data").path("byUserId").asText(), requested.toString());
        assertEquals("please", requested.path("data").path("message").asText(), requested.toString());
        assertEquals(
                scene.pending.deadline().toString(),
                requested.path("data").path("deadline").asText(),
                "the holder must be told the deadline of the request that stands: " + requested);
    }

    @Test
    void aRefusalMadeWhileTheNodeListenedToNothingReachesTheAskerWhenItListensAgain() {
        Scene scene = missed(this::askedAndTold, s -> s.saraAnswers(false));

        JsonNode refused = scene.tom.awaitEvent(event("takeover-refused"), WAIT);
        assertEquals("Sara", refused.path("data").path("byUserName").asText(), refused.toString());
        assertEquals(
                scene.item, refused.path("data").path("resource").path("itemId").asLong(), refused.toString());
    }

    @Test
    void aHandOverMadeWhileTheNodeListenedToNothingReachesTheAskerWhenItListensAgain() {
        Scene scene = missed(this::askedAndTold, s -> s.saraAnswers(true));

        JsonNode granted = scene.tom.awaitEvent(event("takeover-granted"), WAIT);
        JsonNode lock = granted.path("data").path("lock");
        assertEquals(scene.tomUser.id(), lock.path("ownerUserId").asText(), granted.toString());
        assertEquals(scene.item, lock.path("resource").path("itemId").asLong(), granted.toString());
        assertTrue(lock.path("token").asLong() > 0, "the new holder must get the grant's fencing token: " + granted);
        JsonNode unlocked = scene.tom.request("unlock-item-subresource", page(scene.item));
        assertEquals(
                "lock-released",
                unlocked.path("event").asText(),
                "the page must be the asker's, as takeover-granted says: " + unlocked);
    }

    /**
     * Tom asks while the node hears nothing, and Sara refuses before his request's reply has reached
     * the node; the node listens again and catches up before that reply comes: the catch-up does not
     * know of the request. The node looks at Tom's request once its reply has come, and Tom is told of
     * the refusal, once.
     */
    @Test
    void aRefusalMissedWhileTheRequestWasOnItsWayIsToldWhenItsReplyComes() {
        HeldBack heldBack =
                PubSubOutage.missed(redis, keys.lockEventsChannel(), this::tomAsksHeldBack, HeldBack::letGo);
        Scene scene = heldBack.scene();

        assertInstanceOf(Takeovers.Pending.class, heldBack.asked().join());
        JsonNode refused = scene.tom.awaitEvent(event("takeover-refused"), WAIT);
        assertEquals("Sara", refused.path("data").path("byUserName").asText(), refused.toString());
        WsClient.stays(
                () -> scene.tom.events("takeover-refused").size() == 1, Duration.ofSeconds(1), "Tom is told once");
        assertTrue(
                state.askedIn(scene.c).stream()
                        .noneMatch(asked -> asked.askerId().equals(scene.tomUser.id())
                                && asked.field().equals(scene.filtersPage().field())),
                "the node follows a take-over request that ended");
    }

    /**
     * Tom's request for Sara's filters page, made in-process, held right before its script runs until
     * {@link #letGo}; right after the script, Sara refuses it, and its reply waits until the node has
     * caught up (the catch-up asks Sara again about Tom's request for her attributes page, which stands).
     */
    private record HeldBack(
            Scene scene, CountDownLatch go, CountDownLatch refused, CompletableFuture<Takeovers.Outcome> asked) {

        void letGo() {
            go.countDown();
            Latches.awaitOpen(refused, "Sara's refusal");
        }
    }

    private HeldBack tomAsksHeldBack() {
        Scene scene = new Scene();
        assertEquals(
                "lock-acquired",
                scene.sara
                        .request("lock-item-subresource", page(scene.item, "attributes"))
                        .path("event")
                        .asText());
        JsonNode pending = scene.tom.request(
                "request-takeover", Map.of("resource", resource(scene.item, "attributes"), "message", ""));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
        scene.sara.awaitEvent(event("takeover-requested"), WAIT);

        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch refused = new CountDownLatch(1);
        ScriptHooks hooks = ScriptHooks.install(pipelined);
        hooks.beforeNextBlocking("request_takeover", () -> {
            arrived.countDown();
            Latches.awaitOpen(go, "letting the request go");
        });
        hooks.afterNextBlocking("request_takeover", () -> {
            scene.saraAnswers(false);
            refused.countDown();
            await("the node caught up")
                    .atMost(WAIT)
                    .until(() -> scene.sara.events("takeover-requested").size() >= 2);
        });
        CompletableFuture<Takeovers.Outcome> asked = scene.tomAsksInProcessAsync();
        Latches.awaitOpen(arrived, "Tom's request");
        return new HeldBack(scene, go, refused, asked);
    }

    /** A scene in which Tom has asked for the page on his socket, and Sara was told. */
    private Scene askedAndTold() {
        Scene scene = new Scene();
        JsonNode pending = scene.tom.request("request-takeover", about(scene.item));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
        scene.sara.awaitEvent(event("takeover-requested"), WAIT);
        return scene;
    }

    private Scene missed(Supplier<Scene> setUp, Consumer<Scene> step) {
        return PubSubOutage.missed(redis, keys.lockEventsChannel(), setUp, step);
    }

    private static Predicate<JsonNode> requestedBy(TestUser asker) {
        return frame -> event("takeover-requested").test(frame)
                && frame.path("data").path("byUserId").asText().equals(asker.id());
    }

    private static Predicate<JsonNode> event(String name) {
        return frame -> name.equals(frame.path("event").asText()) && !frame.has("ref");
    }

    /** Sara holds a new item's filters page; Tom is connected. */
    private final class Scene {
        final TestUser saraUser = DemoLogin.user("Sara");
        final TestUser tomUser = DemoLogin.user("Tom");
        final long c = Api.configurator(saraUser);
        final long item = Api.item(saraUser, c, null);
        final WsClient sara = sockets.connect(base, saraUser);
        final WsClient tom = sockets.connect(base, tomUser);
        Takeovers.Pending pending;

        Scene() {
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-item-subresource", page(item))
                            .path("event")
                            .asText());
        }

        void tomAsksInProcess() {
            Holder tomOnHisSocket = new Holder(tomUser.id(), "Tom", tom.socketId(), node.id());
            pending = assertInstanceOf(
                    Takeovers.Pending.class,
                    takeovers
                            .request(filtersPage(), tomOnHisSocket, "please")
                            .await()
                            .atMost(WAIT));
        }

        CompletableFuture<Takeovers.Outcome> tomAsksInProcessAsync() {
            return takeovers
                    .request(filtersPage(), new Holder(tomUser.id(), "Tom", tom.socketId(), node.id()), "please")
                    .subscribeAsCompletionStage();
        }

        void saraAnswers(boolean accept) {
            assertTrue(
                    takeovers
                            .answer(filtersPage(), saraUser.id(), accept)
                            .await()
                            .atMost(WAIT)
                            .isPresent(),
                    "Sara's answer must find Tom's request");
        }

        Resource filtersPage() {
            return Resource.itemPage(item, Page.FILTERS);
        }
    }
}
