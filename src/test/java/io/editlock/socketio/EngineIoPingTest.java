package io.editlock.socketio;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.LockService;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The server's Engine.IO pings (docs/protocol.md §12, §5): a client that answers them stays; one that
 * misses a pong is dropped, and its locks wait out the grace period before they are released.
 */
@QuarkusTest
@TestProfile(EngineIoPingTest.ShortPings.class)
class EngineIoPingTest {

    public static class ShortPings implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "editlock.socketio.ping-interval", "500ms",
                    "editlock.socketio.ping-timeout", "3s",
                    "editlock.websocket.ping-timeout", "1s",
                    "editlock.session.sweep-interval", "250ms",
                    "editlock.session.grace-period", "3s");
        }
    }

    @Inject
    ConfiguratorStore store;

    @Inject
    LockService locks;

    @Test
    void aClientThatAnswersPingsStays() {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        List<String> pings =
                sara.pollUntil(received -> received.stream().filter("2"::equals).count() >= 4);
        assertTrue(pings.stream().allMatch("2"::equals), pings.toString());
        sara.post("42/locking,1[\"touch\",{}]");
        // The next ping may come first: pings keep coming every 500 ms.
        assertEquals(
                List.of("43/locking,1[{\"event\":\"touched\",\"data\":{}}]"),
                sara.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43"))).stream()
                        .filter(packet -> packet.startsWith("43"))
                        .toList());
    }

    /**
     * A slow network: every pong comes late, but within the pingTimeout the client was told. The client
     * stays, whatever the ping timeout of {@code /locking} sockets (shorter here than interval + delay).
     */
    @Test
    void aClientWhosePongsComeLateButInTimeStays() {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        Executor slowNetwork = CompletableFuture.delayedExecutor(1200, TimeUnit.MILLISECONDS);
        int pings = 0;
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < until) {
            for (String packet : sara.poll()) {
                if (packet.equals("2")) {
                    pings++;
                    CompletableFuture.runAsync(() -> sara.post("3"), slowNetwork);
                }
            }
        }
        assertTrue(pings >= 3, "pinged " + pings + " times");
        sara.post("42/locking,1[\"touch\",{}]");
        assertEquals(
                List.of("43/locking,1[{\"event\":\"touched\",\"data\":{}}]"),
                sara.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43"))).stream()
                        .filter(packet -> packet.startsWith("43"))
                        .toList());
    }

    @Test
    void aMissedPongIsADropWhoseLocksWaitOutTheGracePeriod() {
        long configuratorId = Fixtures.configurator(store);
        EngineIoClient sara = EngineIoClient.connected("Sara");
        sara.post("42/locking,1[\"lock-configurator\",{\"configuratorId\":" + configuratorId + "}]");
        sara.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43/locking,1")));

        long silentSince = System.nanoTime();
        await().atMost(Duration.ofSeconds(30)).until(() -> sara.getRaw().statusCode() == 400);
        assertEquals(
                1,
                locks.locks(configuratorId)
                        .await()
                        .atMost(Duration.ofSeconds(5))
                        .size(),
                "the dropped client's lock is kept for a resume");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> locks.locks(configuratorId)
                        .await()
                        .atMost(Duration.ofSeconds(5))
                        .isEmpty());
        assertTrue(
                Duration.ofNanos(System.nanoTime() - silentSince).toMillis() >= 3000,
                "released only after the grace period");
    }
}
