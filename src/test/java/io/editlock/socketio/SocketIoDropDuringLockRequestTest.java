package io.editlock.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.ScriptHooks;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5, §12: a Socket.IO socket that drops while one of its lock requests is in hand is
 * gone only once that request is answered, as a /locking socket: a resume meanwhile is refused, and its
 * retry brings back the lock the request granted. The acquire script is held back as it would go out.
 */
@QuarkusTest
class SocketIoDropDuringLockRequestTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    PipelinedRedis redis;

    @Test
    void aGrantMadeAfterTheSessionClosedComesBackWithTheResume() {
        long held = Fixtures.configurator(store);
        long asked = Fixtures.configurator(store);
        DemoLogin.TestUser sara = DemoLogin.user("Sara");
        EngineIoClient dropped = EngineIoClient.connected(sara);
        dropped.post("42/locking,1[\"lock-variables\",{\"configuratorId\":" + held + "}]");
        dropped.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43/locking,1")));

        ScriptHooks.Gate gate = ScriptHooks.install(redis).holdNext("acquire_lock");
        dropped.post("42/locking,2[\"lock-configurator\",{\"configuratorId\":" + asked + "}]");
        gate.awaitReached();
        dropped.post("1"); // the engine's close: a drop

        try (WsClient next = WsClient.connect(base, sara.token())) {
            next.welcome();
            JsonNode early = next.request("resume", Map.of("resumeToken", dropped.resumeToken));
            assertEquals(
                    "RESUME_FAILED",
                    early.path("data").path("code").asText(),
                    "the old socket is not gone while its request is in hand: " + early);
            gate.open();

            JsonNode resumed = next.resumeOnceDropNoted(dropped.resumeToken);
            assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
            assertEquals(2, resumed.path("data").path("locks").size(), "both locks come back: " + resumed);
        }
    }
}
