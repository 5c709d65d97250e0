package io.editlock.ws;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.Holder;
import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.lock.Resource;
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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5 and §6 with short settings: a user who sends nothing loses their locks (reason idle),
 * touch keeps them; a live socket's leases are renewed past many TTLs; a lease nobody renews
 * expires and is announced; a socket that answers no ping is dropped by the server, and its locks
 * wait out the grace period.
 */
@QuarkusTest
@TestProfile(IdleAndExpiryTest.ShortTimes.class)
class IdleAndExpiryTest {

    static final Duration IDLE = Duration.ofSeconds(2);
    static final Duration TTL = Duration.ofSeconds(3);

    public static class ShortTimes implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // The scheduler runs no job more often than once a second: 1s is the shortest interval.
            return Map.of(
                    "editlock.session.idle-timeout", IDLE.toMillis() + "ms",
                    "editlock.session.sweep-interval", "1s",
                    "editlock.session.grace-period", "2s",
                    "editlock.lease.ttl", TTL.toMillis() + "ms",
                    "editlock.lease.renew-interval", "1s",
                    "editlock.lease.reaper-interval", "1s",
                    "editlock.websocket.ping-interval", "300ms",
                    "editlock.websocket.ping-timeout", "1500ms");
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

    @Test
    void silentSocketLosesItsLocksAsIdle() {
        long c = Fixtures.configurator(store);
        try (WsClient tab = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            tab.request("lock-configurator", Map.of("configuratorId", c));

            JsonNode lost = tab.awaitEvent("lock-lost");
            assertEquals(
                    "idle",
                    lost.path("data").path("reason").asText(),
                    "a socket that sends nothing loses its lock as idle: " + lost);
            assertEquals(
                    c,
                    lost.path("data").path("resource").path("configuratorId").asLong(),
                    "lock-lost resource: " + lost);
            JsonNode released = w.awaitEvent("lock-released");
            assertEquals("idle", released.path("data").path("reason").asText(), "watchers learn why: " + released);
            assertTrue(current(c).isEmpty(), "the idle lock is gone from the store");
            assertFalse(tab.isClosed(), "idleness releases locks; it does not close the socket");
        }
    }

    /** §6: a user who saves over REST, and sends nothing on the socket, is at work all the same. */
    @Test
    void restWritesKeepTheLocks() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab = WsClient.connect(base, sara.token())) {
            long token = tab.request("lock-configurator", Map.of("configuratorId", c))
                    .path("data")
                    .path("lock")
                    .path("token")
                    .asLong();
            Instant keepUntil = Instant.now().plus(IDLE.multipliedBy(2));

            while (Instant.now().isBefore(keepUntil)) {
                given().baseUri(base.toString())
                        .auth()
                        .oauth2(sara.token())
                        .header("Lock-Token", token)
                        .contentType("application/json")
                        .body(Map.of("name", "saved at " + Instant.now()))
                        .patch("/api/configurators/" + c)
                        .then()
                        .statusCode(200);
                awaitRenewal(c);
            }

            assertTrue(tab.events("lock-lost").isEmpty(), "a user who saves is not idle: " + tab.received());
            assertEquals(1, current(c).size(), "the lock is still held after twice the idle timeout of saves");
        }
    }

    @Test
    void touchKeepsTheLocks() {
        long c = Fixtures.configurator(store);
        try (WsClient tab = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            tab.request("lock-configurator", Map.of("configuratorId", c));
            Instant keepUntil = Instant.now().plus(IDLE.multipliedBy(2));

            while (Instant.now().isBefore(keepUntil)) {
                assertEquals("touched", tab.request("touch", null).path("event").asText());
                awaitRenewal(c);
            }

            assertTrue(tab.events("lock-lost").isEmpty(), "a socket that touches is not idle: " + tab.received());
            assertEquals(1, current(c).size(), "the lock must still be held after twice the idle timeout with touches");
        }
    }

    /** docs/protocol.md §6: a lock request is a request like any other: a user who only locks is not idle. */
    @Test
    void lockRequestsKeepTheLocks() {
        long c = Fixtures.configurator(store);
        try (WsClient tab = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            tab.request("lock-configurator", Map.of("configuratorId", c));
            Instant keepUntil = Instant.now().plus(IDLE.multipliedBy(2));

            while (Instant.now().isBefore(keepUntil)) {
                assertEquals(
                        "lock-acquired",
                        tab.request("lock-configurator", Map.of("configuratorId", c))
                                .path("event")
                                .asText());
                awaitRenewal(c);
            }

            assertTrue(tab.events("lock-lost").isEmpty(), "a socket that locks is not idle: " + tab.received());
            assertEquals(1, current(c).size(), "the lock must still be held after twice the idle timeout of locks");
        }
    }

    @Test
    void activityOnAnotherSocketOfTheUserKeepsTheLocks() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient background = WsClient.connect(base, sara.token());
                WsClient active = WsClient.connect(base, sara.token())) {
            background.request("lock-configurator", Map.of("configuratorId", c));
            Instant keepUntil = Instant.now().plus(IDLE.multipliedBy(2));

            while (Instant.now().isBefore(keepUntil)) {
                assertEquals(
                        "touched",
                        active.request("touch", Map.of()).path("event").asText());
                awaitRenewal(c);
            }

            assertTrue(
                    background.events("lock-lost").isEmpty()
                            && active.events("lock-lost").isEmpty(),
                    "idleness is the user's (§6): touching in another tab keeps the lock of a quiet one: "
                            + background.received());
            assertEquals(1, current(c).size(), "the lock must still be held while its user is active");
        }
    }

    @Test
    void liveSocketKeepsItsLockBeyondSeveralLeaseTtls() {
        long c = Fixtures.configurator(store);
        ScheduledExecutorService keepActive = Executors.newSingleThreadScheduledExecutor();
        try (WsClient tab = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            JsonNode granted = tab.request("lock-configurator", Map.of("configuratorId", c))
                    .path("data")
                    .path("lock");
            Instant keepUntil =
                    Instant.parse(granted.path("acquiredAt").asText()).plus(TTL.multipliedBy(3));
            // Not idle, however long a renewal takes on a busy machine: this test is about leases.
            keepActive.scheduleAtFixedRate(() -> tab.send("touch", Map.of()), 250, 250, TimeUnit.MILLISECONDS);

            while (Instant.now().isBefore(keepUntil)) {
                awaitRenewal(c);
            }

            List<Lock> now = current(c);
            assertEquals(1, now.size(), "a lock kept by a live socket must survive three lease TTLs");
            assertEquals(
                    granted.path("token").asLong(), now.get(0).token(), "renewal keeps the grant: same fencing token");
            assertTrue(tab.events("lock-lost").isEmpty(), "nothing lost: " + tab.received());
            assertTrue(w.events("lock-released").isEmpty(), "nothing released: " + w.received());
            assertFalse(tab.isClosed(), "a socket that answers pings stays open past many ping timeouts");
        } finally {
            keepActive.shutdownNow();
        }
    }

    @Test
    void leaseNobodyRenewsExpiresAndIsAnnounced() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab = WsClient.connect(base, sara.token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            tab.welcome();
            // Kept by a socket of a node that is gone: nobody renews it (docs/protocol.md §5, a node killed with -9).
            Holder ghost = new Holder(sara.id(), "Sara", "sock-" + UUID.randomUUID(), "node-gone");
            assertInstanceOf(
                    AcquireResult.Granted.class,
                    locks.acquire(Resource.configurator(c), ghost).await().atMost(Duration.ofSeconds(10)));

            JsonNode released = w.awaitEvent("lock-released");
            assertEquals(
                    "expired",
                    released.path("data").path("reason").asText(),
                    "an unrenewed lease is announced as expired: " + released);
            JsonNode lost = tab.awaitEvent("lock-lost");
            assertEquals(
                    "expired", lost.path("data").path("reason").asText(), "the holder's sockets learn it too: " + lost);
            assertTrue(current(c).isEmpty(), "the expired lock is gone from the store");
        }
    }

    @Test
    void socketThatAnswersNoPingIsDroppedAndItsLocksWaitOutTheGracePeriod() {
        long c = Fixtures.configurator(store);
        ScheduledExecutorService keepActive = Executors.newSingleThreadScheduledExecutor();
        try (RawWsClient silent =
                        RawWsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            String socketId = silent.welcome().path("data").path("socketId").asText();
            String lock = "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":" + c + "},\"ref\":\"l\"}";
            assertEquals(
                    "lock-acquired", silent.request(lock, "l").path("event").asText());
            // Requests are not pongs: the user stays active (not idle), but the socket answers no ping.
            keepActive.scheduleAtFixedRate(
                    () -> {
                        if (!silent.closeFrameReceived()) {
                            silent.sendText("{\"event\":\"touch\"}");
                        }
                    },
                    250,
                    250,
                    TimeUnit.MILLISECONDS);

            silent.awaitCloseFrame(Duration.ofSeconds(10));
            assertTrue(silent.pingsReceived() > 0, "the server must have pinged the socket");
            // Nor does it answer the close frame: the server ends the connection without waiting for it
            // long (a peer that answers no ping will not answer that either), and the drop begins.
            silent.awaitEnded(Duration.ofSeconds(4));

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> lifecycle.droppedSessions().stream()
                            .anyMatch(session -> session.socketId().equals(socketId)));
            assertEquals(1, current(c).size(), "a ping timeout is a drop: the lock waits out the grace period");
            assertTrue(
                    w.events("lock-released").isEmpty(),
                    "nothing is released during the grace period: " + w.received());
            JsonNode released = w.awaitEvent("lock-released");
            assertEquals(
                    "disconnect", released.path("data").path("reason").asText(), "after the grace period: " + released);
        } finally {
            keepActive.shutdownNow();
        }
    }

    /** Waits until the lease of the configurator's (only) lock was renewed once more. */
    private void awaitRenewal(long configuratorId) {
        Instant before = current(configuratorId).stream()
                .map(Lock::expiresAt)
                .findFirst()
                .orElseThrow(() -> new AssertionError("the lock of configurator " + configuratorId + " is gone"));
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () -> current(configuratorId).stream().findFirst().map(Lock::expiresAt),
                        expires -> expires.map(e -> e.isAfter(before))
                                .orElseThrow(() -> new AssertionError(
                                        "the lock of configurator " + configuratorId + " was lost")));
    }

    private List<Lock> current(long configuratorId) {
        return locks.locks(configuratorId).await().atMost(Duration.ofSeconds(10));
    }
}
