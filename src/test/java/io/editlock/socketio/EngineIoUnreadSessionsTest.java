package io.editlock.socketio;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/socketio.md: an Engine.IO handshake takes no token, so what a session may cost the node before
 * anybody is identified on it is bounded. A session on which no socket connects is closed after the
 * connect timeout, and a session whose client posts packets and never reads their answers is closed
 * once more waits for it than a socket may have unsent (docs/protocol.md §4).
 */
@QuarkusTest
@TestProfile(EngineIoUnreadSessionsTest.ShortConnectTimeout.class)
class EngineIoUnreadSessionsTest {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);

    public static class ShortConnectTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "editlock.socketio.connect-timeout",
                    CONNECT_TIMEOUT.toMillis() + "ms",
                    "editlock.limits.max-unsent-bytes",
                    "4096",
                    // For EngineIoUpgradeTimeoutTest, which shares this profile with EngineIoSlowClientTest
                    // (one app for the three).
                    "editlock.socketio.upgrade-timeout",
                    "4s");
        }
    }

    private static final int UNKNOWN_SID = 400;
    /** A namespace the server does not have: its connect_error echoes the name back. */
    private static final String LONG_NAMESPACE = "/" + "x".repeat(4000);

    @Test
    void aSessionNobodyConnectsOnIsClosedAfterTheConnectTimeout() {
        EngineIoClient stranger = EngineIoClient.handshake();
        assertEquals(200, stranger.postRaw("6").statusCode(), "open right after the handshake");

        await().atMost(CONNECT_TIMEOUT.plusSeconds(9))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> stranger.postRaw("6").statusCode() == UNKNOWN_SID);
    }

    @Test
    void aSessionWithASocketConnectedOutlivesTheConnectTimeout() {
        EngineIoClient sara = EngineIoClient.connected("Sara");

        await().during(CONNECT_TIMEOUT.multipliedBy(2))
                .atMost(CONNECT_TIMEOUT.multipliedBy(3))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> sara.postRaw("6").statusCode() == 200);
    }

    @Test
    void aSessionWhoseSocketDisconnectedIsClosedAfterTheConnectTimeout() {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        await().during(CONNECT_TIMEOUT.multipliedBy(2))
                .atMost(CONNECT_TIMEOUT.multipliedBy(3))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> sara.postRaw("6").statusCode() == 200);

        sara.post("41/locking,");

        await().atMost(CONNECT_TIMEOUT.plusSeconds(9))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> sara.postRaw("6").statusCode() == UNKNOWN_SID);
    }

    @Test
    void refusedConnectsDoNotKeepASessionNobodyConnectedOnOpen() {
        EngineIoClient stranger = EngineIoClient.handshake();

        await().atMost(CONNECT_TIMEOUT.plusSeconds(9))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> stranger.postRaw("40/locking,{}").statusCode() == UNKNOWN_SID);
    }

    @Test
    void aSessionThatPostsAndNeverReadsIsClosedOnceTooMuchWaitsForIt() {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        int posts = 0;
        while (posts < 50 && sara.postRaw("40" + LONG_NAMESPACE + ",").statusCode() == 200) {
            posts++;
        }
        assertTrue(posts < 50, "50 answers of 4 KB nobody read must not all be kept for the client");
        assertEquals(UNKNOWN_SID, sara.postRaw("6").statusCode(), "the session is closed");
    }
}
