package io.editlock.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.editlock.support.DemoLogin;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.websockets.next.HandshakeRequest;
import io.quarkus.websockets.next.OpenConnections;
import io.quarkus.websockets.next.WebSocketConnection;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The upgrade request stays with an open socket for its whole life (docs/benchmarks.md, memory):
 * once its token is verified, the request no longer carries it, nor headers the handshake does not
 * read, in any of the places a client may put the token (§3). Who the socket is stays as verified.
 */
@QuarkusTest
class UpgradeForgetsTheTokenTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    OpenConnections connections;

    @Test
    void bearerHeaderAndUnneededHeadersAreGoneOnceTheSocketIsOpen() {
        var sara = DemoLogin.user("Sara");
        try (WsClient client = WsClient.connect(base, sara.token(), Map.of("X-Trace", "abc"))) {
            String socketId = client.socketId();
            HandshakeRequest upgrade = upgradeOf(socketId);
            assertNull(upgrade.header("Authorization"), "the verified bearer token must not stay with the socket");
            assertNull(upgrade.header("X-Trace"), "headers the handshake does not read must not stay with the socket");
            assertEquals(
                    "touched",
                    client.request("touch", Map.of()).path("event").asText(),
                    "the socket keeps working as the verified user");
        }
    }

    @Test
    void tokenSubprotocolIsGoneAndEditlockIsStillEchoed() {
        var sara = DemoLogin.user("Sara");
        try (WsClient client =
                WsClient.connectTo(WsClient.locking(base), Map.of(), List.of("editlock", "bearer." + sara.token()))) {
            assertEquals(sara.id(), client.welcome().path("data").path("userId").asText());
            assertEquals("editlock", client.subprotocol(), "a browser still sees editlock echoed");
            assertEquals(
                    "editlock",
                    upgradeOf(client.socketId()).header("Sec-WebSocket-Protocol"),
                    "the offered bearer.<jwt> must not stay with the socket");
        }
    }

    private HandshakeRequest upgradeOf(String socketId) {
        WebSocketConnection connection = connections
                .findByConnectionId(socketId)
                .orElseThrow(() -> new AssertionError("socket " + socketId + " is not open on the server"));
        return connection.handshakeRequest();
    }
}
