package io.editlock.ws;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.session.SessionRegistry;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4, limits that protect a node, each at its boundary: 20 sockets per user and node
 * (the 21st upgrade is 429), 100 watched configurators per socket (the 101st {@code watch} is
 * {@code LIMIT_EXCEEDED}), 200 frames a second per socket besides lock requests ({@code RATE_LIMITED}).
 * A refused request changes nothing.
 */
@QuarkusTest
class SocketLimitsTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    SessionRegistry registry;

    @Test
    void theTwentyFirstSocketOfAUserOnANodeIsRefusedWith429() {
        var sara = DemoLogin.user("Sara");
        List<WsClient> tabs = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                WsClient tab = WsClient.connect(base, sara.token());
                tab.welcome();
                tabs.add(tab);
            }
            Map<String, String> bearer = Map.of("Authorization", "Bearer " + sara.token());
            assertEquals(
                    Optional.of(429),
                    WsClient.refusal(WsClient.locking(base), bearer),
                    "a 21st socket of one user on one node must be refused with 429");
            try (WsClient omar = WsClient.connect(base, DemoLogin.user("Omar").token())) {
                omar.welcome(); // another user is not affected
            }
            tabs.remove(0).closeCleanly();
            await().atMost(Duration.ofSeconds(10))
                    .until(() ->
                            WsClient.refusal(WsClient.locking(base), bearer).isEmpty());
        } finally {
            tabs.forEach(WsClient::close);
        }
    }

    /**
     * A browser restoring thirty tabs of one user at once: twenty open and stay open, the other ten
     * are refused at the upgrade with 429 (docs/protocol.md §4), none admitted and then closed.
     */
    @Test
    void upgradesOfOneUserAtOnceBeyondTwentyAreRefusedWith429() throws Exception {
        var sara = DemoLogin.user("Sara");
        List<WsClient> opened = Collections.synchronizedList(new ArrayList<>());
        List<Integer> refusals = Collections.synchronizedList(new ArrayList<>());
        ExecutorService tabs = Executors.newFixedThreadPool(30);
        try {
            List<Future<?>> upgrades = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                upgrades.add(tabs.submit(() -> {
                    try {
                        opened.add(WsClient.connect(base, sara.token()));
                    } catch (CompletionException refused) {
                        if (!(refused.getCause() instanceof WebSocketHandshakeException handshake)) {
                            throw refused;
                        }
                        refusals.add(handshake.getResponse().statusCode());
                    }
                }));
            }
            for (Future<?> upgrade : upgrades) {
                upgrade.get(60, TimeUnit.SECONDS);
            }
            assertEquals(Collections.nCopies(10, 429), refusals);
            assertEquals(20, opened.size());
            for (WsClient tab : opened) {
                assertEquals("welcome", tab.awaitEvent("welcome").path("event").asText());
            }
            WsClient.stays(
                    () -> opened.stream().noneMatch(WsClient::isClosed),
                    Duration.ofMillis(500),
                    "an admitted socket was closed by the server");
            assertEquals(20, registry.socketsOf(sara.id()).size());
        } finally {
            tabs.shutdownNow();
            opened.forEach(WsClient::close);
        }
    }

    /** docs/protocol.md §4: configurators watched because of a lock do not count against the watch limit. */
    @Test
    void configuratorsWatchedForALockLeaveTheWatchLimitWhole() {
        long locked = Fixtures.configurator(store);
        List<Long> configurators = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            configurators.add(Fixtures.configurator(store));
        }
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-variables", Map.of("configuratorId", locked))
                            .path("event")
                            .asText());
            for (long c : configurators.subList(0, 100)) {
                JsonNode reply = sara.request("watch", Map.of("configuratorId", c));
                assertEquals(
                        "lock-updated",
                        reply.path("event").asText(),
                        "100 watches besides the one that came with the lock: " + reply);
            }
            JsonNode refused = sara.request("watch", Map.of("configuratorId", configurators.get(100)));
            assertEquals("LIMIT_EXCEEDED", refused.path("data").path("code").asText(), "the 101st watch: " + refused);
            // The one it watches for its lock is never refused, also when asked for at the limit.
            JsonNode own = sara.request("watch", Map.of("configuratorId", locked));
            assertEquals(
                    "lock-updated", own.path("event").asText(), "watching where it holds a lock, at the limit: " + own);
            // Served, but not one more asked-for watch: after one unwatch there is room for one again,
            // also when the one it watches for its lock is asked for once more with a place free.
            sara.request("unwatch", Map.of("configuratorId", configurators.get(0)));
            assertEquals(
                    "lock-updated",
                    sara.request("watch", Map.of("configuratorId", locked))
                            .path("event")
                            .asText());
            JsonNode roomAgain = sara.request("watch", Map.of("configuratorId", configurators.get(100)));
            assertEquals(
                    "lock-updated",
                    roomAgain.path("event").asText(),
                    "99 asked for and the lock's own: room for one more: " + roomAgain);
            JsonNode full = sara.request("watch", Map.of("configuratorId", configurators.get(0)));
            assertEquals("LIMIT_EXCEEDED", full.path("data").path("code").asText(), "100 asked for again: " + full);
        }
    }

    /** A deleted configurator holds no place among the 100 watches a socket may ask for. */
    @Test
    void aDeletedConfiguratorNoLongerCountsAgainstTheWatchLimit() {
        TestUser saraUser = DemoLogin.user("Sara");
        long doomed = Api.configurator(saraUser);
        List<Long> others = new ArrayList<>();
        for (int i = 0; i < 99; i++) {
            others.add(Fixtures.configurator(store));
        }
        long beyond = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, saraUser.token())) {
            sara.welcome();
            assertEquals(
                    "lock-updated",
                    sara.request("watch", Map.of("configuratorId", doomed))
                            .path("event")
                            .asText());
            for (long c : others) {
                sara.request("watch", Map.of("configuratorId", c));
            }
            assertEquals(
                    "LIMIT_EXCEEDED",
                    sara.request("watch", Map.of("configuratorId", beyond))
                            .path("data")
                            .path("code")
                            .asText(),
                    "100 watches");

            Api.as(saraUser).delete("/api/configurators/" + doomed).then().statusCode(204);
            sara.awaitEvent(frame -> frame.path("event").asText().equals("content-changed")
                    && frame.path("data").path("op").asText().equals("deleted")
                    && frame.path("data").path("id").asLong() == doomed);

            JsonNode watched = sara.request("watch", Map.of("configuratorId", beyond));
            assertEquals("lock-updated", watched.path("event").asText(), "the deleted one's place is free: " + watched);
        }
    }

    @Test
    void theHundredAndFirstWatchOfASocketIsLimitExceeded() {
        List<Long> configurators = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            configurators.add(Fixtures.configurator(store));
        }
        long beyond = configurators.get(100);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient omar = WsClient.connect(base, DemoLogin.user("Omar").token())) {
            sara.welcome();
            for (long c : configurators.subList(0, 100)) {
                JsonNode reply = sara.request("watch", Map.of("configuratorId", c));
                assertEquals(
                        "lock-updated", reply.path("event").asText(), "watches up to the 100th are served: " + reply);
            }
            JsonNode again = sara.request("watch", Map.of("configuratorId", configurators.get(0)));
            assertEquals(
                    "lock-updated",
                    again.path("event").asText(),
                    "watching a watched one again is no new watch: " + again);

            JsonNode refused = sara.request("watch", Map.of("configuratorId", beyond));
            assertEquals("error", refused.path("event").asText(), "the 101st watch: " + refused);
            assertEquals("LIMIT_EXCEEDED", refused.path("data").path("code").asText(), "the 101st watch: " + refused);
            RestAssured.get("/q/metrics")
                    .then()
                    .statusCode(200)
                    .body(containsString("editlock_limit_refusals_total{limit=\"watches\"}"));

            // The refused watch joined nothing: a change there does not reach the socket.
            omar.welcome();
            assertEquals(
                    "lock-acquired",
                    omar.request("lock-variables", Map.of("configuratorId", beyond))
                            .path("event")
                            .asText());
            JsonNode marker = sara.request("touch", Map.of());
            assertEquals("touched", marker.path("event").asText());
            assertTrue(
                    sara.frames(f -> "lock-updated".equals(f.path("event").asText())
                                    && f.path("data").path("configuratorId").asLong() == beyond
                                    && f.path("ref").isMissingNode())
                            .isEmpty(),
                    "a socket whose watch was refused must get no broadcasts of that configurator");

            assertEquals(
                    "unwatched",
                    sara.request("unwatch", Map.of("configuratorId", configurators.get(0)))
                            .path("event")
                            .asText());
            JsonNode now = sara.request("watch", Map.of("configuratorId", beyond));
            assertEquals("lock-updated", now.path("event").asText(), "after an unwatch there is room again: " + now);
        }
    }

    /** A binary frame is a malformed frame (docs/protocol.md §4): it counts toward the frame rate like any other. */
    @Test
    void binaryFramesCountTowardTheFrameRate() {
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            sara.welcome();
            boolean refusedTheFrameBeyond = false;
            for (int attempt = 0; attempt < 5 && !refusedTheFrameBeyond; attempt++) {
                awaitStartOfASecond();
                for (int i = 0; i < 200; i++) {
                    sara.sendBinary(new byte[] {1});
                }
                JsonNode beyond = sara.reply(sara.send("touch", Map.of()));
                if ("error".equals(beyond.path("event").asText())) {
                    assertEquals(
                            "RATE_LIMITED", beyond.path("data").path("code").asText(), "the 201st frame: " + beyond);
                    refusedTheFrameBeyond = true;
                } else {
                    assertEquals(
                            "touched", beyond.path("event").asText(), "the 201st frame, in the next second: " + beyond);
                }
            }
            assertTrue(refusedTheFrameBeyond, "200 binary frames and a touch in one second: the touch must be refused");
        }
    }

    @Test
    void beyondTwoHundredFramesASecondASocketIsRateLimitedButLockRequestsAreNot() {
        long c = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            sara.welcome();
            boolean refusedTheFrameBeyond = false;
            // A burst that crosses into the next second gets a fresh window; a few tries make sure one
            // burst falls into a single second.
            for (int attempt = 0; attempt < 5 && !refusedTheFrameBeyond; attempt++) {
                awaitStartOfASecond();
                List<String> refs = new ArrayList<>();
                for (int i = 0; i < 201; i++) {
                    refs.add(sara.send("touch", Map.of()));
                }
                String lockRef = sara.send("lock-variables", Map.of("configuratorId", c));
                for (int i = 0; i < 200; i++) {
                    JsonNode reply = sara.reply(refs.get(i));
                    assertEquals(
                            "touched",
                            reply.path("event").asText(),
                            "frame " + (i + 1) + " of a second is served: " + reply);
                }
                JsonNode beyond = sara.reply(refs.get(200));
                if ("error".equals(beyond.path("event").asText())) {
                    assertEquals(
                            "RATE_LIMITED", beyond.path("data").path("code").asText(), "the 201st frame: " + beyond);
                    refusedTheFrameBeyond = true;
                } else {
                    assertEquals(
                            "touched", beyond.path("event").asText(), "the 201st frame, in the next second: " + beyond);
                }
                JsonNode lock = sara.reply(lockRef);
                assertEquals("lock-acquired", lock.path("event").asText(), "lock requests are not counted: " + lock);
            }
            assertTrue(refusedTheFrameBeyond, "the 201st frame of a second must be refused with RATE_LIMITED");
        }
    }

    /** Starts a burst early in a one-second window, so that it spans as few windows as possible. */
    private static void awaitStartOfASecond() {
        await().atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> System.currentTimeMillis() % 1000 < 50);
    }
}
