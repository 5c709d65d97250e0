package io.editlock.events;

import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.Holder;
import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.lock.Page;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.session.NodeIdentity;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.PubSubOutage;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.editlock.waiting.Takeovers;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: a lock that ends while this node hears nothing (its pub/sub connections cut) is
 * announced to nobody here. Once the node hears again, the holder's socket, told it holds the lock,
 * gets its {@code lock-lost} before the fresh {@code lock-updated}; a holder whose lock lived on gets
 * none. Sara holds an item's filters page on her socket, which also watches its configurator; the step
 * under test is taken in-process while the node listens to nothing.
 */
@QuarkusTest
class LostLockCatchUpTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    LockService locks;

    @Inject
    Takeovers takeovers;

    @Inject
    NodeIdentity node;

    @Inject
    PipelinedRedis pipelined;

    @Inject
    RelayMetrics metrics;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void aLockBrokenWhileTheNodeHeardNothingIsLostForItsHolderWhenItHearsAgain() {
        Scene scene = missed(Scene::new, Scene::adminBreaksIt);

        JsonNode lost = scene.sara.awaitEvent(unasked("lock-lost"), WAIT);
        assertEquals(
                scene.item, lost.path("data").path("resource").path("itemId").asLong(), lost.toString());
        assertEquals("filters", lost.path("data").path("resource").path("page").asText(), lost.toString());
        assertEquals("expired", lost.path("data").path("reason").asText(), "the node did not hear why: " + lost);
        assertEquals(1, scene.sara.events("lock-lost").size(), "one lock-lost: " + scene.sara.received());
    }

    /** docs/protocol.md §9: the locks-held figures are the store's again once the node hears again. */
    @Test
    void theFiguresNoLongerCountALockThatEndedUnheardInAWatchedConfigurator() {
        Scene scene = missed(Scene::new, Scene::adminBreaksIt);

        scene.sara.awaitEvent(unasked("lock-lost"), WAIT);
        await("the configurator no longer counts a lock")
                .atMost(WAIT)
                .until(() -> !metrics.countedConfigurators().contains(scene.configurator));
    }

    /** Nobody on this node watches the configurator any more: it is read for the figures alone. */
    @Test
    void theFiguresNoLongerCountALockThatEndedUnheardInAConfiguratorNobodyWatches() {
        Scene scene = missed(this::unwatchedBySara, Scene::adminBreaksIt);

        scene.sara.awaitEvent(unasked("lock-lost"), WAIT);
        await("the configurator no longer counts a lock")
                .atMost(WAIT)
                .until(() -> !metrics.countedConfigurators().contains(scene.configurator));
    }

    /** A {@code wait-for} that finds the page free is answered with a grant, which is told like any other. */
    @Test
    void aPageGrantedAtOnceToAWaitForIsLostForItsHolderWhenTheNodeHearsAgain() {
        Scene scene = missed(() -> new Scene("wait-for"), Scene::adminBreaksIt);

        JsonNode lost = scene.sara.awaitEvent(unasked("lock-lost"), WAIT);
        assertEquals(
                scene.item, lost.path("data").path("resource").path("itemId").asLong(), lost.toString());
        assertEquals("expired", lost.path("data").path("reason").asText(), "the node did not hear why: " + lost);
    }

    @Test
    void aPageHandedOverWhileTheNodeHeardNothingIsLostForItsFormerHolderWhenItHearsAgain() {
        Scene scene = missed(this::askedAndTold, Scene::saraAccepts);

        JsonNode lost = scene.sara.awaitEvent(unasked("lock-lost"), WAIT);
        assertEquals(
                scene.item, lost.path("data").path("resource").path("itemId").asLong(), lost.toString());
        JsonNode updated = scene.sara.awaitEvent(unasked("lock-updated"), WAIT);
        assertTrue(
                scene.sara.received().indexOf(lost) < scene.sara.received().indexOf(updated),
                "lock-lost comes before the lock-updated that shows the page as Tom's: " + scene.sara.received());
    }

    @Test
    void aLockThatLivedOnIsNotLostWhenTheNodeHearsAgain() {
        Scene scene = missed(Scene::new, Scene::tomTakesAnotherPage);

        JsonNode updated = scene.sara.awaitEvent(unasked("lock-updated"), WAIT);
        assertEquals(2, updated.path("data").path("locks").size(), "Sara's page and Tom's: " + updated);
        assertEquals(
                0,
                scene.sara.events("lock-lost").size(),
                "Sara still holds her page, and lock-lost would come before this lock-updated: "
                        + scene.sara.received());
        JsonNode unlocked = scene.sara.request("unlock-item-subresource", page(scene.item));
        assertEquals("lock-released", unlocked.path("event").asText(), "the page is still Sara's: " + unlocked);
    }

    @Test
    void aLockWhoseEndTheNodeHeardIsNotLostAgainWhenItHearsAgain() {
        Scene scene = missed(
                () -> {
                    Scene heard = new Scene();
                    heard.adminBreaksIt();
                    heard.sara.awaitEvent(unasked("lock-lost"), WAIT);
                    heard.sara.awaitEvent(unasked("lock-updated")
                            .and(frame -> frame.path("data").path("locks").isEmpty()));
                    heard.sara.clear();
                    return heard;
                },
                nothing -> {});

        JsonNode updated = scene.sara.awaitEvent(unasked("lock-updated"), WAIT);
        assertEquals(0, updated.path("data").path("locks").size(), updated.toString());
        assertEquals(
                0,
                scene.sara.events("lock-lost").size(),
                "Sara was told once, when the node heard it: " + scene.sara.received());
    }

    /**
     * docs/protocol.md §6: every release is announced. One this node did not hear reaches its watchers
     * once it hears again, before the fresh {@code lock-updated}; the node did not hear why.
     */
    @Test
    void aLockBrokenWhileTheNodeHeardNothingIsReleasedForItsWatchersWhenItHearsAgain() {
        Scene scene = missed(this::watchedByTom, Scene::adminBreaksIt);

        JsonNode released = scene.tom.awaitEvent(unasked("lock-released"), WAIT);
        assertEquals(
                scene.item,
                released.path("data").path("resource").path("itemId").asLong(),
                released.toString());
        assertEquals(
                "filters", released.path("data").path("resource").path("page").asText(), released.toString());
        assertEquals(
                scene.saraUser.id(), released.path("data").path("ownerUserId").asText(), released.toString());
        assertEquals(
                "expired", released.path("data").path("reason").asText(), "the node did not hear why: " + released);
        JsonNode updated = scene.tom.awaitEvent(unasked("lock-updated"), WAIT);
        assertTrue(
                scene.tom.received().indexOf(released) < scene.tom.received().indexOf(updated),
                "lock-released comes before the lock-updated that no longer shows the page: " + scene.tom.received());
        assertEquals(1, scene.tom.events("lock-released").size(), "one lock-released: " + scene.tom.received());
    }

    /**
     * A change heard right after the node hears again, before its catch-up reads the store, shows the
     * watchers the configurator without the lock that ended unheard: its release is owed all the same.
     */
    @Test
    void aLockBrokenUnheardIsReleasedForItsWatchersAlsoWhenAChangeIsHeardBeforeTheCatchUpReads() {
        ScriptHooks hooks = ScriptHooks.install(pipelined);
        Scene scene = missed(this::watchedByTom, broken -> {
            broken.adminBreaksIt();
            // The catch-up's read of the configurator's locks waits for Tom's grant to be heard.
            hooks.beforeNext("list_locks", args -> args.get(0).equals("0"), broken::tomTakesTheVariablesHeard);
        });

        JsonNode released = scene.tom.awaitEvent(unasked("lock-released"), WAIT);
        assertEquals(
                scene.item,
                released.path("data").path("resource").path("itemId").asLong(),
                released.toString());
        assertEquals("expired", released.path("data").path("reason").asText(), released.toString());
    }

    /**
     * docs/protocol.md §4: a socket whose unlock released a lock is told once, by its reply. Sara's
     * unlock runs while the node hears nothing: the watchers get the release when it hears again, Sara's
     * socket not a second time.
     */
    @Test
    void aLockReleasedUnheardByItsHoldersOwnUnlockIsNotReleasedForItTwice() {
        Scene scene = missed(this::watchedByTom, Scene::saraUnlocks);

        scene.tom.awaitEvent(unasked("lock-released"), WAIT);
        scene.sara.awaitEvent(
                unasked("lock-updated")
                        .and(frame -> frame.path("data").path("locks").isEmpty()),
                WAIT);
        assertEquals(
                0,
                scene.sara.events("lock-released").stream()
                        .filter(frame -> !frame.has("ref"))
                        .count(),
                "Sara's reply told her: " + scene.sara.received());
    }

    @Test
    void aLockThatLivedOnIsNotReleasedForItsWatchersWhenTheNodeHearsAgain() {
        Scene scene = missed(this::watchedByTom, Scene::tomTakesAnotherPage);

        JsonNode updated = scene.tom.awaitEvent(
                unasked("lock-updated")
                        .and(frame -> frame.path("data").path("locks").size() == 2),
                WAIT);
        assertEquals(
                0,
                scene.tom.events("lock-released").size(),
                "Sara's page lived on, and its lock-released would come before this lock-updated (" + updated + "): "
                        + scene.tom.received());
    }

    /** A scene in which Tom watches the configurator too. */
    private Scene watchedByTom() {
        Scene scene = new Scene();
        scene.tom.request("watch", Map.of("configuratorId", scene.configurator));
        scene.tom.clear();
        return scene;
    }

    /** A scene in which Sara keeps her lock but no longer watches its configurator (docs/protocol.md §4). */
    private Scene unwatchedBySara() {
        Scene scene = new Scene();
        assertEquals(
                "unwatched",
                scene.sara
                        .request("unwatch", Map.of("configuratorId", scene.configurator))
                        .path("event")
                        .asText());
        assertTrue(metrics.countedConfigurators().contains(scene.configurator), "the lock is counted");
        return scene;
    }

    /** A scene in which Tom has asked for Sara's page on his socket, and Sara was told. */
    private Scene askedAndTold() {
        Scene scene = new Scene();
        JsonNode pending = scene.tom.request("request-takeover", about(scene.item));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
        scene.sara.awaitEvent(unasked("takeover-requested"), WAIT);
        scene.sara.clear();
        return scene;
    }

    private Scene missed(Supplier<Scene> setUp, Consumer<Scene> step) {
        return PubSubOutage.missed(redis, keys.lockEventsChannel(), setUp, step);
    }

    private static Predicate<JsonNode> unasked(String name) {
        return frame -> name.equals(frame.path("event").asText()) && !frame.has("ref");
    }

    /** Sara holds a new item's filters page and watches its configurator; Tom is connected. */
    private final class Scene {
        final TestUser saraUser = DemoLogin.user("Sara");
        final TestUser tomUser = DemoLogin.user("Tom");
        final long configurator = Api.configurator(saraUser);
        final long item = Api.item(saraUser, configurator, null);
        final WsClient sara = sockets.connect(base, saraUser);
        final WsClient tom = sockets.connect(base, tomUser);

        Scene() {
            this("lock-item-subresource");
        }

        /** @param request how Sara asks for the page: {@code lock-item-subresource} or {@code wait-for} */
        Scene(String request) {
            sara.request("watch", Map.of("configuratorId", configurator));
            assertEquals(
                    "lock-acquired",
                    sara.request(request, request.equals("wait-for") ? about(item) : page(item))
                            .path("event")
                            .asText());
            sara.awaitEvent(unasked("lock-updated")
                    .and(frame -> frame.path("data").path("locks").size() == 1));
            sara.clear();
        }

        void adminBreaksIt() {
            Lock grant = locks.locks(configurator).await().atMost(WAIT).get(0);
            assertInstanceOf(
                    ReleaseResult.Released.class,
                    locks.releaseGrant(grant, ReleaseReason.ADMIN, "").await().atMost(WAIT));
        }

        void saraAccepts() {
            assertTrue(
                    takeovers
                            .answer(filtersPage(), saraUser.id(), true)
                            .await()
                            .atMost(WAIT)
                            .isPresent(),
                    "Sara's answer must find Tom's request");
        }

        /** Tom takes the variables, and his socket has heard it (a live change). */
        Uni<Void> tomTakesTheVariablesHeard() {
            Resource variables = Resource.variables(configurator);
            return locks.acquire(variables, new Holder(tomUser.id(), "Tom", tom.socketId(), node.id()))
                    .chain(() -> Uni.createFrom()
                            .completionStage(CompletableFuture.runAsync(() -> tom.awaitEvent(
                                    unasked("lock-updated")
                                            .and(frame -> frame.toString().contains("\"variables\"")),
                                    WAIT))));
        }

        void saraUnlocks() {
            JsonNode unlocked = sara.request("unlock-item-subresource", page(item));
            assertEquals("lock-released", unlocked.path("event").asText(), unlocked.toString());
        }

        void tomTakesAnotherPage() {
            Resource variables = Resource.variables(configurator);
            assertInstanceOf(
                    AcquireResult.Granted.class,
                    locks.acquire(variables, new Holder(tomUser.id(), "Tom", tom.socketId(), node.id()))
                            .await()
                            .atMost(WAIT));
        }

        Resource filtersPage() {
            return Resource.itemPage(item, Page.FILTERS);
        }
    }
}
