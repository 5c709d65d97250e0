package io.editlock.ws;

import static io.editlock.support.LockFrames.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: the first frame of every socket is {@code welcome}, naming the socket and
 * its user.
 */
@QuarkusTest
class WelcomeTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void welcomeComesFirstWithTheSocketAndTheUser() {
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token())) {
            s.welcome();
            JsonNode first = s.received().get(0);
            assertEquals("welcome", event(first), "the first frame of every socket must be welcome: " + s.received());
            assertFalse(first.has("ref"), "welcome is not a reply: " + first);
            JsonNode data = first.path("data");
            assertFalse(data.path("socketId").asText().isBlank(), "welcome must carry the socketId: " + first);
            assertEquals(sara.id(), data.path("userId").asText(), "welcome must name the user of the token: " + first);
            assertEquals("Sara", data.path("userName").asText(), "welcome must carry the display name: " + first);
            assertFalse(data.path("resumeToken").asText().isBlank(), "welcome must carry a resumeToken: " + first);
        }
    }
}
