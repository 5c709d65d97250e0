package io.editlock.ws;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.session.SessionLifecycle;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.RawWsClient;
import io.editlock.support.ScriptHooks;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5: a page that goes away closes with 1001, and a reload is such a page. Its
 * locks wait the short reload grace for the reloaded page's resume, then go with reason disconnect
 * (1000, the client is done, releases at once). The grace period of a drop is set far longer here, so
 * that a release after the reload grace cannot be mistaken for one after the grace period. A
 * Socket.IO client on the WebSocket transport is told apart the same way (§12).
 */
@QuarkusTest
@TestProfile(ReloadGraceTest.ShortReloadGrace.class)
class ReloadGraceTest {

    static final Duration RELOAD_GRACE = Duration.ofSeconds(3);
    static final Duration GRACE = Duration.ofSeconds(60);

    public static class ShortReloadGrace implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "editlock.session.reload-grace",
                    RELOAD_GRACE.toMillis() + "ms",
                    "editlock.session.grace-period",
                    GRACE.toMillis() + "ms");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockService locks;

    @Inject
    SessionLifecycle lifecycle;

    @Inject
    LockKeys keys;

    @Inject
    PipelinedRedis pipelined;

    @Test
    void reloadedPageResumesTheSameGrantAndWatchersNeverSeeItReleased() {
        long c = Fixtures.configurator(store);
        TestUser tom = DemoLogin.user("Tom");
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            sara.request("watch", Map.of("configuratorId", c));
            RawWsClient before = RawWsClient.connect(base, tom.token());
            JsonNode granted = before.request(lock(c, "l1"), "l1").path("data").path("lock");
            String resumeToken =
                    before.welcome().path("data").path("resumeToken").asText();
            String oldSocket = before.welcome().path("data").path("socketId").asText();

            before.sendClose(1001);
            awaitKeptForResume(oldSocket);
            before.close();

            try (WsClient after = WsClient.connect(base, tom.token())) {
                JsonNode resumed = after.request("resume", Map.of("resumeToken", resumeToken));
                assertEquals(
                        "resumed",
                        resumed.path("event").asText(),
                        "the reloaded page resumes within the reload grace: " + resumed);
                JsonNode lock = resumed.path("data").path("locks").path(0);
                assertEquals(
                        granted.path("token").asLong(),
                        lock.path("token").asLong(),
                        "the same grant (fencing token): " + resumed);
                assertEquals(
                        granted.path("acquiredAt").asText(),
                        lock.path("acquiredAt").asText(),
                        "the same grant (acquiredAt): " + resumed);
                assertEquals(Set.of(after.socketId()), keepersOf(c), "the reloaded page keeps the lock now");

                // Past the old socket's reload grace (and a margin): nothing was ever released.
                await().during(RELOAD_GRACE.plusSeconds(2))
                        .atMost(RELOAD_GRACE.plusSeconds(10))
                        .until(() -> sara.events("lock-released").isEmpty());
                assertEquals(Set.of(after.socketId()), keepersOf(c), "the resumed lock outlives the reload grace");
            }
        }
    }

    @Test
    void pageThatWentAwayIsReleasedAfterTheReloadGraceNotTheGracePeriod() {
        long c = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token());
                RawWsClient tom =
                        RawWsClient.connect(base, DemoLogin.user("Tom").token())) {
            sara.request("watch", Map.of("configuratorId", c));
            tom.request(lock(c, "l1"), "l1");

            long closedAt = System.nanoTime();
            tom.sendClose(1001);

            assertReleasedAfterTheReloadGrace(sara, closedAt);
            assertEquals(List.of(), currentLocks(c), "nothing is held any more");
        }
    }

    /**
     * §12: a Socket.IO client on the WebSocket transport closes with 1001 too when its page goes away,
     * and gets the same reload grace (on long-polling there is no close code to tell).
     */
    @Test
    void aSocketIoPageThatWentAwayIsReleasedAfterTheReloadGraceNotTheGracePeriod() throws Exception {
        long c = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            sara.request("watch", Map.of("configuratorId", c));
            BlockingQueue<String> packets = new LinkedBlockingQueue<>();
            WebSocket tom = HttpClient.newHttpClient()
                    .newWebSocketBuilder()
                    .buildAsync(
                            URI.create(base.toString().replaceFirst("^http", "ws")
                                    + "socket.io/?EIO=4&transport=websocket"),
                            new WebSocket.Listener() {
                                @Override
                                public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
                                    packets.add(data.toString());
                                    socket.request(1);
                                    return null;
                                }
                            })
                    .get(10, TimeUnit.SECONDS);
            tom.sendText("40/locking,{\"token\":\"" + DemoLogin.user("Tom").token() + "\"}", true);
            tom.sendText("42/locking,1[\"lock-configurator\",{\"configuratorId\":" + c + "}]", true);
            String reply = await().atMost(Duration.ofSeconds(10))
                    .until(
                            () -> packets.stream()
                                    .filter(packet -> packet.startsWith("43/locking,1"))
                                    .findFirst(),
                            Optional::isPresent)
                    .get();
            assertTrue(reply.contains("lock-acquired"), reply);

            long closedAt = System.nanoTime();
            tom.sendClose(1001, "page gone").get(10, TimeUnit.SECONDS);

            assertReleasedAfterTheReloadGrace(sara, closedAt);
        }
    }

    /** The watcher is told of the release with reason disconnect, after the reload grace (from {@code closedAt}, nanoTime). */
    private static void assertReleasedAfterTheReloadGrace(WsClient watcher, long closedAt) {
        JsonNode released = watcher.awaitEvent(
                frame -> "lock-released".equals(frame.path("event").asText()), RELOAD_GRACE.plusSeconds(10));
        Duration after = Duration.ofNanos(System.nanoTime() - closedAt);
        assertEquals(
                "disconnect", released.path("data").path("reason").asText(), "released as a disconnect: " + released);
        assertTrue(
                after.compareTo(RELOAD_GRACE.minusMillis(200)) >= 0,
                "kept for the reload grace, not released at once: released after " + after.toMillis() + " ms");
        assertTrue(
                after.compareTo(GRACE) < 0,
                "released after the reload grace, not the long grace period: " + after.toMillis() + " ms");
    }

    /**
     * 1000 (the client is done) releases at once: the release comes, and the socket was never kept
     * for a resume on the way (its resume record was never marked dropped, as a 1001's is).
     */
    @Test
    void normalClosureReleasesAtOnce() {
        long c = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token());
                RawWsClient tom =
                        RawWsClient.connect(base, DemoLogin.user("Tom").token())) {
            sara.request("watch", Map.of("configuratorId", c));
            tom.request(lock(c, "l1"), "l1");
            String resumeKey =
                    keys.resume(tom.welcome().path("data").path("resumeToken").asText());
            AtomicBoolean keptForResume = new AtomicBoolean();
            ScriptHooks.install(pipelined).beforeNext("mark_dropped", (k, args) -> k.contains(resumeKey), () -> {
                keptForResume.set(true);
                return Uni.createFrom().voidItem();
            });

            tom.sendClose(1000);

            JsonNode released = sara.awaitEvent(
                    frame -> "lock-released".equals(frame.path("event").asText()), Duration.ofSeconds(10));
            assertEquals(
                    "disconnect",
                    released.path("data").path("reason").asText(),
                    "released as a disconnect: " + released);
            assertFalse(keptForResume.get(), "a socket closed with 1000 is not kept for a resume");
            assertEquals(List.of(), currentLocks(c), "nothing is held any more");
        }
    }

    /** The server noticed the close and keeps the socket's locks for a resume. */
    private void awaitKeptForResume(String socketId) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lifecycle.droppedSessions().stream()
                        .anyMatch(session -> session.socketId().equals(socketId)));
    }

    private Set<String> keepersOf(long configuratorId) {
        return currentLocks(configuratorId).stream()
                .flatMap(lock -> lock.keepers().keySet().stream())
                .collect(Collectors.toSet());
    }

    private List<Lock> currentLocks(long configuratorId) {
        return locks.locks(configuratorId).await().atMost(Duration.ofSeconds(10));
    }

    private static String lock(long configuratorId, String ref) {
        return "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":" + configuratorId + "},\"ref\":\"" + ref
                + "\"}";
    }
}
