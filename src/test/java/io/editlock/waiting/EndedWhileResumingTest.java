package io.editlock.waiting;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.LockService;
import io.editlock.lock.Page;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.session.ResumeStore;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §5, §13, §14: a resume moves the old socket's places in lines and take-over
 * requests to the new socket, and this node then follows them. One that ends while the resume moves
 * it (the line serves the user, the holder hands the page over) was heard of before the node recorded
 * it, and must not be recorded after: the node would follow for good a place or a request that is gone.
 * Sara waited or asked from a socket of another node (taken in the store directly) and resumes here;
 * Tom frees the page right after the move, before the node has recorded what it moved.
 */
@QuarkusTest
class EndedWhileResumingTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    WaitingScripts scripts;

    @Inject
    WaitingLines lines;

    @Inject
    Takeovers takeovers;

    @Inject
    WaitingState state;

    @Inject
    ResumeStore resumes;

    @Inject
    PipelinedRedis pipelined;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    LockService locks;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a place in the line", "a take-over request"})
    void whatEndedWhileTheResumeMovedItIsNotFollowed(String what) {
        Scene scene = new Scene(what);
        JsonNode resumed = scene.resumeWhile(() -> {
            scene.tomEndsIt();
            // The end is heard here, and handed to Sara's new socket, before the move's reply.
            scene.sara.awaitEvent(frame -> grantOf(frame, scene.filters), WAIT);
        });

        assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
        scene.assertNotFollowed();
    }

    /**
     * The end comes while the node hears nothing, and the node catches up before the move's reply: that
     * catch-up does not know of what the resume moves yet. The node looks at it once it is recorded, and
     * Sara is told of her grant.
     */
    @ParameterizedTest
    @ValueSource(strings = {"a place in the line", "a take-over request"})
    void whatEndedUnheardWhileTheResumeMovedItIsToldOnceItIsRecorded(String what) {
        Scene scene = resumedAcrossACatchUp(what, Scene::tomEndsIt);
        JsonNode resumed = scene.resumed.join();

        assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
        JsonNode granted = scene.sara.awaitEvent(frame -> grantOf(frame, scene.filters), WAIT);
        assertEquals(
                scene.line ? "lock-acquired" : "takeover-granted",
                granted.path("event").asText(),
                granted.toString());
        WsClient.stays(
                () -> scene.sara.frames(frame -> grantOf(frame, scene.filters)).size() == 1,
                Duration.ofSeconds(1),
                "Sara is told once");
        await("the node no longer follows what ended").atMost(WAIT).untilAsserted(scene::assertNotFollowed);
    }

    /**
     * Two pages moved by one resume: one ends while the node hears it, before the move is recorded, the
     * other while the node hears nothing. Each grant is told once, and the node follows neither.
     */
    @ParameterizedTest
    @ValueSource(strings = {"a place in the line", "a take-over request"})
    void oneEndHeardAndOneUnheardWhileTheResumeMovedThemAreEachToldOnce(String what) {
        Scene scene = PubSubOutage.missed(
                redis,
                keys.lockEventsChannel(),
                () -> {
                    Scene held = new Scene(what, true).resumingHeldInTheMove();
                    held.tomEnds(held.other);
                    held.sara.awaitEvent(frame -> grantOf(frame, held.other), WAIT);
                    return held;
                },
                Scene::tomEndsIt,
                Scene::letTheMoveGoOn);
        try {
            await("the node catches up").atMost(WAIT).until(() -> state.catchUps() > scene.catchUpsBefore);
        } finally {
            scene.letTheMoveGoOn();
        }
        JsonNode resumed = scene.resumed.join();

        assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
        scene.sara.awaitEvent(frame -> grantOf(frame, scene.filters), WAIT);
        WsClient.stays(
                () -> scene.sara.frames(frame -> grantOf(frame, scene.filters)).size() == 1
                        && scene.sara
                                        .frames(frame -> grantOf(frame, scene.other))
                                        .size()
                                == 1,
                Duration.ofSeconds(1),
                "Sara is told of each grant once");
        await("the node follows neither").atMost(WAIT).untilAsserted(scene::assertNotFollowed);
    }

    /**
     * A catch-up during the resume, and nothing ended: the look at what the resume moved tells Sara
     * nothing but, at most, where she stands; the node follows her place or request on.
     */
    @ParameterizedTest
    @ValueSource(strings = {"a place in the line", "a take-over request"})
    void whatStandsAfterACatchUpDuringTheResumeIsFollowedOn(String what) {
        Scene scene = resumedAcrossACatchUp(what, ignored -> {});
        JsonNode resumed = scene.resumed.join();

        assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
        List<String> outcomes =
                List.of("not-waiting", "lock-acquired", "takeover-granted", "takeover-refused", "lock-failed");
        WsClient.stays(
                () -> scene.sara
                        .frames(frame -> outcomes.contains(frame.path("event").asText()))
                        .isEmpty(),
                Duration.ofSeconds(1),
                "Sara is told of no outcome");
        if (scene.line) {
            assertTrue(scene.saraWaits(), "the node no longer follows Sara's place");
        } else {
            assertTrue(state.askedConfigurators().contains(scene.c), "the node no longer follows Sara's request");
        }
    }

    /**
     * Sara's resume is held in its move while {@code step} runs and the node hears nothing, and goes on
     * once the node has begun to catch up. A scene of its own for each attempt: a step the node heard
     * after all cannot be taken back.
     */
    private Scene resumedAcrossACatchUp(String what, Consumer<Scene> step) {
        Scene scene = PubSubOutage.missed(
                redis,
                keys.lockEventsChannel(),
                () -> new Scene(what).resumingHeldInTheMove(),
                step,
                Scene::letTheMoveGoOn);
        try {
            await("the node catches up").atMost(WAIT).until(() -> state.catchUps() > scene.catchUpsBefore);
        } finally {
            scene.letTheMoveGoOn();
        }
        return scene;
    }

    /**
     * Tom holds an item's filters page; Sara waits for it, or asked to take it over, from a socket of
     * another node, which dropped; Sara is connected here with its resume token.
     */
    private final class Scene {
        final boolean line;
        final TestUser saraUser = DemoLogin.user("Sara");
        final TestUser tomUser = DemoLogin.user("Tom");
        final long c = Api.configurator(tomUser);
        final long item = Api.item(tomUser, c, null);
        final Resource filters = Resource.itemPage(item, Page.FILTERS).inConfigurator(c);
        /** A second page Sara waits for or asked for, the same way; null in a scene of one page. */
        final Resource other;

        final WsClient tom = sockets.connect(base, tomUser);
        final String resumeToken;
        final WsClient sara;
        final CountDownLatch moveGoesOn = new CountDownLatch(1);
        long catchUpsBefore;
        CompletableFuture<JsonNode> resumed;

        Scene(String what) {
            this(what, false);
        }

        Scene(String what, boolean twoPages) {
            line = what.startsWith("a place");
            other = twoPages
                    ? Resource.itemPage(Api.item(tomUser, c, null), Page.FILTERS)
                            .inConfigurator(c)
                    : null;
            SocketElsewhere elsewhere = SocketElsewhere.of(saraUser, lines, c);
            for (Resource page : pages()) {
                assertEquals(
                        "lock-acquired",
                        tom.request("lock-item-subresource", Map.of("itemId", page.itemId(), "page", "filters"))
                                .path("event")
                                .asText());
                if (line) {
                    elsewhere.waitsFor(scripts, page);
                } else {
                    elsewhere.asksFor(scripts, page);
                    tom.awaitEvent(
                            frame -> frame.path("event").asText().equals("takeover-requested")
                                    && frame.path("data")
                                                    .path("resource")
                                                    .path("itemId")
                                                    .asLong()
                                            == page.itemId(),
                            WAIT);
                }
            }
            resumeToken = elsewhere.dropped(resumes);
            sara = sockets.connect(base, saraUser);
        }

        List<Resource> pages() {
            return other == null ? List.of(filters) : List.of(filters, other);
        }

        /** Sara resumes; {@code duringMove} runs right after the store moved her old socket's places and requests. */
        JsonNode resumeWhile(Runnable duringMove) {
            ScriptHooks.install(pipelined).afterNextBlocking("move_socket_locks", duringMove);
            return sara.request("resume", Map.of("resumeToken", resumeToken));
        }

        /**
         * Sara resumes on another thread, whose move is held right after the store moved her old socket's
         * places and requests, until {@link #moveGoesOn}; with the node's count of catch-ups from before.
         */
        Scene resumingHeldInTheMove() {
            CountDownLatch moved = new CountDownLatch(1);
            ScriptHooks.install(pipelined).afterNextBlocking("move_socket_locks", () -> {
                moved.countDown();
                Latches.awaitOpen(moveGoesOn, "letting the resume go on");
            });
            catchUpsBefore = state.catchUps();
            resumed = CompletableFuture.supplyAsync(() -> sara.request("resume", Map.of("resumeToken", resumeToken)));
            Latches.awaitOpen(moved, "the move");
            return this;
        }

        void letTheMoveGoOn() {
            moveGoesOn.countDown();
        }

        /** Tom frees the page (the line serves Sara) or hands it over, in-process. */
        void tomEndsIt() {
            tomEnds(filters);
        }

        void tomEnds(Resource page) {
            if (line) {
                assertInstanceOf(
                        ReleaseResult.Released.class,
                        locks.release(page, tomUser.id(), tom.socketId())
                                .await()
                                .atMost(WAIT));
            } else {
                assertTrue(
                        takeovers
                                .answer(page, tomUser.id(), true)
                                .await()
                                .atMost(WAIT)
                                .isPresent(),
                        "Tom's answer must find Sara's request");
            }
        }

        boolean saraWaits() {
            return state.waits(saraUser.id(), c, filters.field());
        }

        void assertNotFollowed() {
            for (Resource page : pages()) {
                assertFalse(state.waits(saraUser.id(), c, page.field()), "the node follows a place that was served");
            }
            assertFalse(state.askedConfigurators().contains(c), "the node follows a take-over request that ended");
        }
    }

    private static boolean grantOf(JsonNode frame, Resource resource) {
        String event = frame.path("event").asText();
        return (event.equals("lock-acquired") || event.equals("takeover-granted"))
                && frame.path("data")
                                .path("lock")
                                .path("resource")
                                .path("itemId")
                                .asLong()
                        == resource.itemId();
    }
}
