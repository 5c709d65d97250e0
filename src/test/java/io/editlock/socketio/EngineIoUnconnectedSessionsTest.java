package io.editlock.socketio;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.RedisIndependentSecondPass;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/socketio.md: the handshake takes no token, so the sessions nobody connected on yet are bounded, on
 * the node and per client address. A handshake beyond either bound is refused with 429 and opens nothing;
 * a session leaves the count when its socket connects or it ends, and counts again when its socket
 * disconnects. Clients claim their address through {@code X-Forwarded-For}, which this node trusts.
 */
@QuarkusTest
@RedisIndependentSecondPass
@TestProfile(EngineIoUnconnectedSessionsTest.SmallCaps.class)
class EngineIoUnconnectedSessionsTest {

    static final int PER_NODE = 6;
    static final int PER_ADDRESS = 3;
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

    public static class SmallCaps implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "editlock.socketio.max-unconnected-sessions",
                    String.valueOf(PER_NODE),
                    "editlock.socketio.max-unconnected-sessions-per-address",
                    String.valueOf(PER_ADDRESS),
                    "editlock.socketio.connect-timeout",
                    CONNECT_TIMEOUT.toMillis() + "ms",
                    "quarkus.http.proxy.proxy-address-forwarding",
                    "true",
                    "quarkus.http.proxy.allow-x-forwarded",
                    "true");
        }
    }

    private static final AtomicInteger ADDRESSES = new AtomicInteger();

    @Inject
    EngineSessions sessions;

    @Inject
    UnconnectedSessions unconnected;

    @Inject
    ConfiguratorStore store;

    private final List<EngineIoClient> opened = new ArrayList<>();

    /** What an earlier test left (a session its close did not reach) is gone before this one counts. */
    @BeforeEach
    void nothingOpen() {
        await().atMost(CONNECT_TIMEOUT.plusSeconds(10)).until(() -> sessions.count() == 0 && unconnected.count() == 0);
    }

    @AfterEach
    void closeAll() {
        opened.forEach(EngineIoClient::close);
    }

    @Test
    void handshakesBeyondTheCapOfOneAddressAreRefusedAndOpenNothing() {
        String crowded = newAddress();
        openUnconnected(crowded, PER_ADDRESS);
        double counted = HandshakeRefusalCounts.of("unconnected-sessions-per-address");

        assertRefused(handshakeFrom(crowded), "Too many sessions from this address");
        assertEquals(PER_ADDRESS, sessions.count(), "a refused handshake opens no session");
        assertEquals(counted + 1, HandshakeRefusalCounts.of("unconnected-sessions-per-address"), "refusal counted");

        openUnconnected(newAddress(), 1); // another address still has room on the node
    }

    @Test
    void handshakesBeyondTheCapOfTheNodeAreRefusedAndOpenNothing() {
        openUnconnected(newAddress(), PER_ADDRESS);
        openUnconnected(newAddress(), PER_NODE - PER_ADDRESS);
        double counted = HandshakeRefusalCounts.of("unconnected-sessions");

        assertRefused(handshakeFrom(newAddress()), "Too many sessions");
        assertEquals(PER_NODE, sessions.count(), "a refused handshake opens no session");
        assertEquals(counted + 1, HandshakeRefusalCounts.of("unconnected-sessions"), "refusal counted");
    }

    @Test
    void aSessionThatConnectsGivesItsPlaceBackAtOnce() {
        String address = newAddress();
        List<EngineIoClient> waiting = openUnconnected(address, PER_ADDRESS);
        assertRefused(handshakeFrom(address), "Too many sessions from this address");

        waiting.get(0).connect(DemoLogin.user("Sara"));

        // Well within the connect timeout: only the connect can have given the place back.
        opened.add(EngineIoClient.of(handshakeFrom(address)));
    }

    @Test
    void anAbandonedSessionGivesItsPlaceBackAtItsConnectTimeout() {
        String address = newAddress();
        openUnconnected(address, PER_ADDRESS);
        assertRefused(handshakeFrom(address), "Too many sessions from this address");

        await().atMost(CONNECT_TIMEOUT.plusSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> sessions.count() == 0);
        openUnconnected(address, PER_ADDRESS);
    }

    @Test
    void aSessionWhoseSocketDisconnectedCountsAgainUntilItEnds() {
        String address = newAddress();
        EngineIoClient sara = openUnconnected(address, 1).get(0);
        sara.connect(DemoLogin.user("Sara"));
        openUnconnected(address, PER_ADDRESS - 1);

        sara.post("41/locking,");
        assertRefused(handshakeFrom(address), "Too many sessions from this address");

        sara.close();
        opened.add(EngineIoClient.of(handshakeFrom(address)));
    }

    @Test
    void socketIoClientsFromOneAddressStillConnectLockAndGetTheirEvents() {
        long configuratorId = Fixtures.configurator(store);
        String office = newAddress();
        // More clients than the address may have waiting at once: each gives its place back as it connects.
        List<EngineIoClient> clients = new ArrayList<>();
        for (int i = 0; i < PER_NODE + 1; i++) {
            EngineIoClient client = EngineIoClient.of(handshakeFrom(office));
            opened.add(client);
            client.connect(DemoLogin.user("User" + i));
            clients.add(client);
        }
        EngineIoClient tom = clients.get(0);
        EngineIoClient sara = clients.get(1);
        tom.post("42/locking,1[\"watch\",{\"configuratorId\":" + configuratorId + "}]");
        tom.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43/locking,1")));

        sara.post("42/locking,[\"lock-configurator\",{\"configuratorId\":" + configuratorId + "}]");

        sara.pollUntil(
                received -> received.stream().anyMatch(packet -> packet.startsWith("42/locking,[\"lock-acquired\"")));
        tom.pollUntil(received -> received.stream()
                .anyMatch(packet ->
                        packet.startsWith("42/locking,[\"lock-updated\"") && packet.contains("\"locks\":[{")));
    }

    private List<EngineIoClient> openUnconnected(String address, int count) {
        List<EngineIoClient> clients = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            EngineIoClient client = EngineIoClient.of(handshakeFrom(address));
            opened.add(client);
            clients.add(client);
        }
        return clients;
    }

    private static Response handshakeFrom(String address) {
        return EngineIoClient.open(Map.of("X-Forwarded-For", address));
    }

    private static void assertRefused(Response refused, String message) {
        refused.then().statusCode(429).header("Retry-After", "1");
        assertEquals(
                "{\"code\":4,\"message\":\"" + message + "\"}",
                refused.asString(),
                "Engine.IO's error body for a refused handshake");
    }

    /** An address no other test used, so that only this test's sessions count for it. */
    private static String newAddress() {
        int n = ADDRESSES.incrementAndGet();
        return "10.0." + (n / 250) + "." + (n % 250 + 1);
    }
}
