package io.editlock.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.session.SessionLifecycle;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.ScriptHooks;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §5 and §6: a user whose socket idled (its locks went with reason idle) comes back on
 * the same open socket. What they lock then is theirs like any grant: renewed while they work, released
 * at once by a clean close; the idle release never takes a lock granted after it was decided; and a
 * socket that idled and then closes leaves nothing of itself behind.
 */
@QuarkusTest
@TestProfile(IdleThenBackTest.ShortTimes.class)
class IdleThenBackTest {

    static final Duration LEASE = Duration.ofSeconds(4);
    static final Duration IDLE = Duration.ofSeconds(2);
    static final Duration WAIT = Duration.ofSeconds(10);

    public static class ShortTimes implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "editlock.lease.ttl", LEASE.toMillis() + "ms",
                    "editlock.lease.renew-interval", "1s",
                    "editlock.session.idle-timeout", IDLE.toMillis() + "ms",
                    "editlock.session.grace-period", "2s",
                    "editlock.session.sweep-interval", "1s",
                    // Longer than the pause of the store in anIdleReleaseSparesALockGrantedAfterItWasDecided.
                    "quarkus.redis.timeout", "15s");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockService locks;

    @Inject
    LockKeys keys;

    @Inject
    SessionRegistry registry;

    @Inject
    SessionLifecycle lifecycle;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    PipelinedRedis pipelined;

    @Test
    void aLockTakenAgainAfterAnIdleReleaseIsRenewedWhileTheUserWorks() {
        long c = Fixtures.configurator(store);
        try (WsClient tab = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            lockConfigurator(tab, c);
            idleOutAndStayAway(tab);

            long token = lockConfigurator(tab, c)
                    .path("data")
                    .path("lock")
                    .path("token")
                    .asLong();
            Instant keepUntil = Instant.now().plus(LEASE.multipliedBy(2));
            while (Instant.now().isBefore(keepUntil)) {
                assertEquals(
                        "touched", tab.request("touch", Map.of()).path("event").asText());
                // The user touches about once a second; between touches no lock-lost may come.
                await().during(Duration.ofSeconds(1))
                        .atMost(WAIT)
                        .untilAsserted(() -> assertTrue(
                                tab.events("lock-lost").isEmpty(),
                                "a lock taken again on a live, active socket must not be lost: " + tab.received()));
            }
            List<Lock> held = current(c);
            assertEquals(1, held.size(), "the lock taken again must still be held after two lease lengths");
            assertEquals(token, held.get(0).token(), "its lease was renewed: still the same grant");
        }
    }

    @Test
    void aCleanCloseAfterComingBackReleasesAtOnce() {
        long c = Fixtures.configurator(store);
        try (WsClient tab = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient watcher = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            watcher.request("watch", Map.of("configuratorId", c));
            lockConfigurator(tab, c);
            idleOutAndStayAway(tab);
            lockConfigurator(tab, c);
            watcher.clear();

            tab.closeCleanly();

            JsonNode released = watcher.awaitEvent("lock-released");
            assertEquals(
                    "disconnect",
                    released.path("data").path("reason").asText(),
                    "a clean close of the last keeping socket releases at once, not by the lease running out: "
                            + released);
            assertTrue(current(c).isEmpty(), "nothing is left in the store");
        }
    }

    /** The socket's resume record ran out while its user was away; coming back makes the socket resumable again. */
    @Test
    void aDropAfterComingBackCanStillBeResumed() {
        long c = Fixtures.configurator(store);
        String sara = DemoLogin.user("Sara").token();
        WsClient tab = WsClient.connect(base, sara);
        String socketId = tab.socketId();
        String resumeToken = tab.resumeToken();
        lockConfigurator(tab, c);
        idleOutAndStayAway(tab);
        long token =
                lockConfigurator(tab, c).path("data").path("lock").path("token").asLong();

        // Connected beforehand: the resume must come within this profile's short grace period.
        WsClient reloaded = WsClient.connect(base, sara);
        tab.drop();
        await().atMost(WAIT)
                .until(() -> lifecycle.droppedSessions().stream()
                        .anyMatch(session -> session.socketId().equals(socketId)));
        try (reloaded) {
            JsonNode resumed = reloaded.request("resume", Map.of("resumeToken", resumeToken));
            assertEquals("resumed", resumed.path("event").asText(), "the page is not handed on: " + resumed);
            assertEquals(
                    token,
                    resumed.path("data").path("locks").get(0).path("token").asLong(),
                    "the same grant comes back: " + resumed);
        }
    }

    @Test
    void aSocketThatIdledAndClosesLeavesNothingBehind() {
        long c = Fixtures.configurator(store);
        WsClient tab = WsClient.connect(base, DemoLogin.user("Sara").token());
        String socketId = tab.socketId();
        String resumeToken = tab.resumeToken();
        lockConfigurator(tab, c);
        JsonNode lost = tab.awaitEvent("lock-lost");
        assertEquals("idle", lost.path("data").path("reason").asText(), "the lock goes as idle first: " + lost);

        tab.closeCleanly();

        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertFalse(locks.tracksSocket(socketId), "the node must forget the closed socket's index");
            assertFalse(
                    exists(keys.socketConfigurators(socketId)),
                    "the closed socket's index must be gone from the store");
            assertFalse(
                    exists(keys.resume(resumeToken)), "the closed socket's resume record must be gone from the store");
        });
        assertTrue(registry.find(socketId).isEmpty(), "the closed socket is no session any more");
    }

    /**
     * The store pauses after the node decided the socket is idle and before its release ran; the user
     * locks variables meanwhile (a grant after the decision): the release takes the configurator lock
     * it was decided for, never the new one.
     */
    @Test
    void anIdleReleaseSparesALockGrantedAfterItWasDecided() {
        long c = Fixtures.configurator(store);
        try (WsClient tab = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            lockConfigurator(tab, c);
            SocketSession session = registry.find(tab.socketId()).orElseThrow();
            await().atMost(WAIT)
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> session.idleNanos() > IDLE.minusMillis(300).toNanos());

            redis.execute(Command.CLIENT, "PAUSE", "2500", "ALL").await().atMost(WAIT);
            await().atMost(Duration.ofSeconds(3))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> !session.mayKeepLocks());
            String ref = tab.send("lock-variables", Map.of("configuratorId", c));

            assertEquals("lock-acquired", tab.reply(ref).path("event").asText(), "the new request is granted");
            JsonNode lost = tab.awaitEvent("lock-lost");
            assertEquals(
                    "configurator",
                    lost.path("data").path("resource").path("type").asText(),
                    "the idle release takes the lock it was decided for: " + lost);
            tab.request("touch", Map.of());
            // A release that wrongly took the new lock too would come right after the first: for a
            // second, the variables lock must stay.
            await("the variables lock to stay")
                    .during(Duration.ofSeconds(1))
                    .atMost(WAIT)
                    .until(() ->
                            current(c).stream().anyMatch(lock -> lock.resource().type() == ResourceType.VARIABLES));
            List<Lock> held = current(c);
            assertEquals(
                    1,
                    held.size(),
                    "the variables lock granted after the idle decision must survive it: " + held + ", frames: "
                            + tab.received());
            assertEquals(ResourceType.VARIABLES, held.get(0).resource().type(), "the lock left is the variables lock");
            assertEquals(1, tab.events("lock-lost").size(), "only the configurator lock is lost: " + tab.received());
        }
    }

    /**
     * §6, §14: the idle release spares what the socket asked for after it was decided, places in lines
     * as well as grants, also a place asked for again. The release is held back until Sara, idle a
     * moment ago, has asked for her place in the line.
     */
    @ParameterizedTest(name = "waiting already: {0}")
    @ValueSource(booleans = {false, true})
    void anIdleReleaseSparesAPlaceTakenAfterItWasDecided(boolean waitingAlready) throws InterruptedException {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient tom = WsClient.connect(base, DemoLogin.user("Tom").token())) {
            assertEquals(
                    "lock-acquired",
                    tom.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"))
                            .path("event")
                            .asText());
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-item-subresource", Map.of("itemId", item, "page", "attributes"))
                            .path("event")
                            .asText());
            if (waitingAlready) {
                // Asked again after the decision, the place stays by the later request.
                assertEquals(
                        "queued",
                        sara.request(
                                        "wait-for",
                                        Map.of(
                                                "resource",
                                                Map.of("type", "item-subresource", "itemId", item, "page", "filters")))
                                .path("event")
                                .asText());
            }
            // Tom stays active throughout: the only idle release to come is Sara's.
            ScheduledExecutorService toucher = Executors.newSingleThreadScheduledExecutor();
            toucher.scheduleAtFixedRate(() -> tom.send("touch", Map.of()), 0, 300, TimeUnit.MILLISECONDS);
            CompletableFuture<Void> decided = new CompletableFuture<>();
            CompletableFuture<Void> queued = new CompletableFuture<>();
            // Sara's idle release, not the release of a socket an earlier test left behind.
            String saraSocket = sara.socketId();
            ScriptHooks.install(pipelined)
                    .beforeNext(
                            "release_socket_locks",
                            args -> args.get(0).equals(saraSocket)
                                    && args.get(1).equals("idle"),
                            () -> {
                                decided.complete(null);
                                return Uni.createFrom().completionStage(queued);
                            });
            decided.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();

            JsonNode place = sara.request(
                    "wait-for",
                    Map.of("resource", Map.of("type", "item-subresource", "itemId", item, "page", "filters")));
            assertEquals("queued", place.path("event").asText(), place.toString());
            queued.complete(null);

            JsonNode lost = sara.awaitEvent("lock-lost");
            assertEquals("idle", lost.path("data").path("reason").asText(), "the lock it was decided for: " + lost);
            sara.request("touch", Map.of());
            toucher.shutdown();
            assertTrue(toucher.awaitTermination(10, TimeUnit.SECONDS));
            assertEquals(
                    "lock-released",
                    tom.request("unlock-item-subresource", Map.of("itemId", item, "page", "filters"))
                            .path("event")
                            .asText());
            JsonNode served =
                    sara.awaitEvent(frame -> frame.path("event").asText().equals("lock-acquired")
                            && frame.path("data").path("queued").asBoolean());
            assertEquals(
                    "filters",
                    served.path("data")
                            .path("lock")
                            .path("resource")
                            .path("page")
                            .asText());
            assertTrue(sara.events("not-waiting").isEmpty(), "the place was not ended: " + sara.received());
        }
    }

    private static JsonNode lockConfigurator(WsClient tab, long c) {
        JsonNode reply = tab.request("lock-configurator", Map.of("configuratorId", c));
        assertEquals("lock-acquired", reply.path("event").asText(), "lock of configurator " + c + ": " + reply);
        return reply;
    }

    /** The socket idles out and stays open; its user comes back after more than two lease lengths. */
    private void idleOutAndStayAway(WsClient tab) {
        JsonNode lost = tab.awaitEvent("lock-lost");
        assertEquals("idle", lost.path("data").path("reason").asText(), "the socket idles out first: " + lost);
        await("the idle socket to stay open while its user is away")
                .during(LEASE.multipliedBy(2).plusSeconds(1))
                .atMost(LEASE.multipliedBy(3))
                .until(() -> !tab.isClosed());
        assertFalse(tab.isClosed(), "idleness releases locks, it does not close the socket");
        tab.clear();
    }

    private boolean exists(String key) {
        return redis.execute(Command.EXISTS, key).await().atMost(WAIT).toInteger() == 1;
    }

    private List<Lock> current(long configuratorId) {
        return locks.locks(configuratorId).await().atMost(WAIT);
    }
}
