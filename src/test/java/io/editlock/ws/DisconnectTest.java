package io.editlock.ws;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.session.SessionLifecycle;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.RawWsClient;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §5 and §11: a clean close (1000, or a close frame without a code) releases at once (1001, a page that went away, is
 * ReloadGraceTest's); any other end of a socket is a drop, whose locks wait out the grace period for a resume with the welcome's resumeToken, on a new
 * socket of the same user, once; then they are released with reason disconnect. A lock lives as
 * long as any socket of its user keeps it.
 */
@QuarkusTest
@TestProfile(DisconnectTest.ShortGrace.class)
class DisconnectTest {

    static final Duration GRACE = Duration.ofSeconds(3);

    public static class ShortGrace implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("editlock.session.grace-period", GRACE.toMillis() + "ms");
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

    /** Ways a socket can end that are not a clean close (§5). */
    enum Drop {
        NO_CLOSE_FRAME,
        CLOSE_CODE_4000,
        SERVER_CLOSE_1009
    }

    /** Stands for a close frame without a code: 1005 is what receivers report then, never sent itself. */
    static final int NO_CODE = 1005;

    @ParameterizedTest(name = "close code {0}")
    @ValueSource(ints = {1000, NO_CODE})
    void cleanCloseReleasesAtOnce(int code) {
        long c = Fixtures.configurator(store);
        long dropped = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        TestUser omar = DemoLogin.user("Omar");
        try (RawWsClient closing = RawWsClient.connect(base, sara.token());
                WsClient otherTab = WsClient.connect(base, sara.token());
                WsClient omarTab = WsClient.connect(base, omar.token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            w.request("watch", Map.of("configuratorId", dropped));
            assertEquals(
                    "lock-acquired",
                    closing.request(lock(c, "c1"), "c1").path("event").asText());
            assertEquals(
                    "lock-acquired",
                    omarTab.request("lock-configurator", Map.of("configuratorId", dropped))
                            .path("event")
                            .asText());
            // Omar's socket drops first: its lock is released only when its grace period ends.
            omarTab.drop();
            awaitDropped(omarTab.socketId());

            if (code == NO_CODE) {
                closing.sendCloseWithoutCode();
            } else {
                closing.sendClose(code);
            }

            JsonNode released = w.awaitEvent(f -> isReleaseOf(f, c));
            assertEquals(
                    "disconnect",
                    released.path("data").path("reason").asText(),
                    "a clean close is announced as disconnect: " + released);
            assertEquals(
                    1,
                    heldTypes(dropped).size(),
                    "a clean close must release at once: when it was announced, Omar's lock "
                            + "(dropped earlier) must still be waiting out its grace period");
            JsonNode lost = otherTab.awaitEvent("lock-lost");
            assertEquals(
                    "disconnect",
                    lost.path("data").path("reason").asText(),
                    "the holder's other sockets get lock-lost: " + lost);
        }
    }

    @Test
    void anotherSocketOfTheUserKeepsTheLockAlive() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token());
                WsClient tab2 = WsClient.connect(base, sara.token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            tab1.request("lock-configurator", Map.of("configuratorId", c));
            tab2.request("lock-configurator", Map.of("configuratorId", c)); // re-entry: tab2 keeps it too

            tab1.closeCleanly();

            String tab2Id = tab2.socketId();
            await().atMost(Duration.ofSeconds(10)).until(() -> keepersOf(c).equals(Set.of(tab2Id)));
            assertEquals(
                    Set.of("configurator"),
                    heldTypes(c),
                    "the lock must outlive the closed socket while tab2 keeps it");
            tab2.closeCleanly();
            JsonNode released = w.awaitEvent("lock-released");
            assertEquals(
                    "disconnect",
                    released.path("data").path("reason").asText(),
                    "released when the last socket is gone: " + released);
            assertEquals(
                    1,
                    w.events("lock-released").size(),
                    "one release, when tab2 closed, none when tab1 did: " + w.received());
        }
    }

    @ParameterizedTest
    @EnumSource(Drop.class)
    void droppedSocketKeepsItsLocksForTheGracePeriod(Drop how) {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab = WsClient.connect(base, sara.token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            tab.request("lock-configurator", Map.of("configuratorId", c));
            String socketId = tab.socketId();

            end(tab, how);

            awaitDropped(socketId);
            assertEquals(
                    Set.of(socketId),
                    keepersOf(c),
                    how + ": during the grace period the lock is still kept for the dropped socket");
            assertTrue(
                    w.events("lock-released").isEmpty(),
                    how + ": nothing is released during the grace period: " + w.received());
            JsonNode released = w.awaitEvent("lock-released");
            assertEquals(
                    "disconnect",
                    released.path("data").path("reason").asText(),
                    how + ": after the grace period: " + released);
            assertEquals(Set.of(), heldTypes(c), how + ": the lock is gone after the grace period");
        }
    }

    @Test
    void resumeWithinTheGracePeriodMovesTheSameGrantsToTheNewSocket() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            WsClient old = WsClient.connect(base, sara.token());
            JsonNode configuratorLock = old.request("lock-configurator", Map.of("configuratorId", c))
                    .path("data")
                    .path("lock");
            JsonNode pageLock = old.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"))
                    .path("data")
                    .path("lock");
            String resumeToken = old.resumeToken();
            old.drop();
            awaitDropped(old.socketId());
            int updatesBefore = w.events("lock-updated").size();

            try (WsClient fresh = WsClient.connect(base, sara.token())) {
                String ref = fresh.send("resume", Map.of("resumeToken", resumeToken));
                JsonNode resumed = fresh.reply(ref);

                assertEquals("resumed", resumed.path("event").asText(), "resume within the grace period: " + resumed);
                Map<String, JsonNode> moved = StreamSupport.stream(
                                resumed.path("data").path("locks").spliterator(), false)
                        .collect(Collectors.toMap(
                                l -> l.path("resource").path("type").asText(), l -> l));
                assertEquals(Set.of("configurator", "item-subresource"), moved.keySet(), "both locks move: " + resumed);
                for (JsonNode before : List.of(configuratorLock, pageLock)) {
                    JsonNode after =
                            moved.get(before.path("resource").path("type").asText());
                    assertEquals(
                            before.path("token").asLong(),
                            after.path("token").asLong(),
                            "resume keeps the fencing token: " + resumed);
                    assertEquals(
                            before.path("acquiredAt").asText(),
                            after.path("acquiredAt").asText(),
                            "resume keeps acquiredAt: " + resumed);
                }
                assertEquals(Set.of(fresh.socketId()), keepersOf(c), "the new socket keeps the locks now");

                // The old socket's grace period ends meanwhile: it must release nothing.
                await().during(GRACE.plusMillis(500))
                        .atMost(GRACE.plusSeconds(5))
                        .until(() -> w.events("lock-released").isEmpty()
                                && w.events("lock-updated").size() == updatesBefore);
                assertEquals(
                        Set.of("configurator", "item-subresource"),
                        heldTypes(c),
                        "resumed locks outlive the old grace period");

                fresh.closeCleanly();
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> w.events("lock-released").size() == 2);
                assertTrue(
                        w.events("lock-released").stream()
                                .allMatch(f -> "disconnect"
                                        .equals(f.path("data").path("reason").asText())),
                        "closing the new socket releases what it resumed: " + w.events("lock-released"));
            }
        }
    }

    @Test
    void resumeOfAnUnknownTokenFails() {
        try (WsClient tab = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            assertResumeFailed(tab, "no-such-token", "an unknown token");
        }
    }

    @Test
    void resumeOfAStillOpenSocketFails() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token());
                WsClient tab2 = WsClient.connect(base, sara.token())) {
            tab1.request("lock-configurator", Map.of("configuratorId", c));
            assertResumeFailed(tab2, tab1.resumeToken(), "the token of a socket that is still open");
            assertEquals(Set.of(tab1.socketId()), keepersOf(c), "a failed resume moves nothing");
        }
    }

    @Test
    void resumeWorksOnceAndOnlyForItsOwnUser() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        WsClient old = WsClient.connect(base, sara.token());
        old.request("lock-configurator", Map.of("configuratorId", c));
        String resumeToken = old.resumeToken();
        old.drop();
        awaitDropped(old.socketId());

        try (WsClient omar = WsClient.connect(base, DemoLogin.user("Omar").token());
                WsClient tab2 = WsClient.connect(base, sara.token());
                WsClient tab3 = WsClient.connect(base, sara.token())) {
            assertResumeFailed(omar, resumeToken, "another user's token");
            JsonNode resumed = tab2.request("resume", Map.of("resumeToken", resumeToken));
            assertEquals(
                    "resumed",
                    resumed.path("event").asText(),
                    "another user's failed attempt must not use the token up: " + resumed);
            assertResumeFailed(tab3, resumeToken, "a token used before");
            assertEquals(Set.of(tab2.socketId()), keepersOf(c), "the second attempt moved nothing");
        }
    }

    @Test
    void resumeAfterTheGracePeriodFails() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token());
                WsClient old = WsClient.connect(base, sara.token())) {
            w.request("watch", Map.of("configuratorId", c));
            old.request("lock-configurator", Map.of("configuratorId", c));
            String resumeToken = old.resumeToken();
            old.drop();
            w.awaitEvent("lock-released");
            try (WsClient late = WsClient.connect(base, sara.token())) {
                assertResumeFailed(late, resumeToken, "a token whose grace period is over");
            }
        }
    }

    /**
     * docs/protocol.md §11: a token is good only while its socket's locks are still kept. Another tab of
     * the user released the one lock within the grace period: nothing is left to resume.
     */
    @Test
    void resumeOfASocketWhoseLocksAreAllGoneFails() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab = WsClient.connect(base, sara.token())) {
            WsClient old = WsClient.connect(base, sara.token());
            old.request("lock-configurator", Map.of("configuratorId", c));
            String resumeToken = old.resumeToken();
            old.drop();
            awaitDropped(old.socketId());
            assertEquals(
                    "lock-released",
                    tab.request("unlock-configurator", Map.of("configuratorId", c))
                            .path("event")
                            .asText(),
                    "any socket of the user may unlock it");
            try (WsClient late = WsClient.connect(base, sara.token())) {
                assertResumeFailed(late, resumeToken, "a token whose socket keeps nothing any more");
            }
        }
    }

    // --- helpers ------------------------------------------------------------------------------

    private void end(WsClient tab, Drop how) {
        switch (how) {
            case NO_CLOSE_FRAME -> tab.drop();
            case CLOSE_CODE_4000 -> tab.closeWith(4000);
            case SERVER_CLOSE_1009 -> {
                tab.sendRaw("{\"event\":\"touch\",\"data\":{\"pad\":\"" + "p".repeat(20_000) + "\"}}");
                assertEquals(1009, tab.awaitClosedByServer(), "an oversized frame is closed by the server with 1009");
            }
        }
    }

    private static void assertResumeFailed(WsClient client, String resumeToken, String what) {
        String ref = client.send("resume", Map.of("resumeToken", resumeToken));
        JsonNode reply = client.reply(ref);
        assertEquals("error", reply.path("event").asText(), what + " cannot be resumed: " + reply);
        assertEquals("RESUME_FAILED", reply.path("data").path("code").asText(), what + ": " + reply);
    }

    /**
     * docs/protocol.md §5: the connection died on the client's side only, so the server still holds the
     * old socket open and the resume is RESUME_FAILED; asking again for the page keeps its grant, and
     * the old socket's drop, when the server notices it, releases nothing.
     */
    @Test
    void aClientWhoseOldSocketStillStandsKeepsItsPageByAskingAgain() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        Map<String, Object> variables = Map.of("configuratorId", c);
        try (WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token());
                WsClient old = WsClient.connect(base, sara.token());
                WsClient fresh = WsClient.connect(base, sara.token())) {
            w.request("watch", variables);
            JsonNode granted = old.request("lock-variables", variables);

            assertResumeFailed(fresh, old.resumeToken(), "a socket the server still holds open");
            JsonNode again = fresh.request("lock-variables", variables);
            assertEquals("lock-acquired", again.path("event").asText(), again.toString());
            assertEquals(
                    granted.path("data").path("lock").path("token").asLong(),
                    again.path("data").path("lock").path("token").asLong(),
                    "the same grant: " + again);

            old.drop();
            awaitDropped(old.socketId());
            WsClient.stays(
                    () -> w.events("lock-released").isEmpty(),
                    GRACE.plusSeconds(1),
                    "the old socket's grace ends and releases nothing: " + w.received());
            assertEquals(Set.of(fresh.socketId()), keepersOf(c), "the new socket keeps the page");
        }
    }

    /** The server noticed the drop and keeps the socket's locks for the grace period. */
    private void awaitDropped(String socketId) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lifecycle.droppedSessions().stream()
                        .anyMatch(session -> session.socketId().equals(socketId)));
    }

    private Set<String> keepersOf(long configuratorId) {
        return currentLocks(configuratorId).stream()
                .flatMap(lock -> lock.keepers().keySet().stream())
                .collect(Collectors.toSet());
    }

    private Set<String> heldTypes(long configuratorId) {
        return currentLocks(configuratorId).stream()
                .map(lock -> lock.resource().type().wireName())
                .collect(Collectors.toSet());
    }

    private List<Lock> currentLocks(long configuratorId) {
        return locks.locks(configuratorId).await().atMost(Duration.ofSeconds(10));
    }

    private static boolean isReleaseOf(JsonNode frame, long configuratorId) {
        return "lock-released".equals(frame.path("event").asText())
                && frame.path("data").path("resource").path("configuratorId").asLong() == configuratorId;
    }

    private static String lock(long configuratorId, String ref) {
        return "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":" + configuratorId + "},\"ref\":\"" + ref
                + "\"}";
    }
}
