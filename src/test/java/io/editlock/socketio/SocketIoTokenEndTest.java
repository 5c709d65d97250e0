package io.editlock.socketio;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.session.SessionRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §3, §12: a Socket.IO socket lives no longer than its token either; at its end the
 * server ends the Engine.IO session, a drop, and a polling client's next poll brings the close packet.
 */
@QuarkusTest
@TestProfile(SocketIoTokenEndTest.ShortTokens.class)
class SocketIoTokenEndTest {

    static final Duration TOKEN_LIFETIME = Duration.ofSeconds(8);

    public static class ShortTokens implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("editlock.demo-login.token-lifetime", TOKEN_LIFETIME.toMillis() + "ms");
        }
    }

    @Inject
    SessionRegistry registry;

    @Test
    void theSocketEndsWhenItsTokenEnds() {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        assertTrue(registry.find(sara.socketId).isPresent(), "control: the socket is open on this node");
        await().atMost(TOKEN_LIFETIME.plusSeconds(5))
                .untilAsserted(() -> assertTrue(
                        registry.find(sara.socketId).isEmpty(),
                        "a Socket.IO socket whose token ended must be ended by the server"));

        // No poll was parked then: the next one gets what waited and the close packet, as from an
        // Engine.IO server's close (the client sees "transport close", not a transport error).
        List<String> last = sara.poll();
        assertEquals("1", last.get(last.size() - 1), last.toString());
        sara.getRaw().then().statusCode(400).body("code", equalTo(1));
    }
}
