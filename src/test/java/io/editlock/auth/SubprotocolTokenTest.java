package io.editlock.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.DemoLogin;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A browser may carry its token in {@code Sec-WebSocket-Protocol} instead of the URL (which proxies
 * log): it offers {@code editlock} and {@code bearer.<jwt>}; the server takes the token from there
 * and accepts {@code editlock}, which a browser requires to see echoed.
 */
@QuarkusTest
class SubprotocolTokenTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void tokenInTheSubprotocolIdentifiesTheUserAndEditlockIsEchoed() {
        var sara = DemoLogin.user("Sara");
        try (WsClient client =
                WsClient.connectTo(WsClient.locking(base), Map.of(), List.of("editlock", "bearer." + sara.token()))) {
            assertEquals(
                    sara.id(),
                    client.welcome().path("data").path("userId").asText(),
                    "the subprotocol's token names the user");
            assertEquals(
                    "editlock",
                    client.subprotocol(),
                    "the server must accept the editlock subprotocol (a browser checks it)");
            assertEquals(
                    "touched", client.request("touch", Map.of()).path("event").asText());
        }
    }

    @Test
    void badTokenInTheSubprotocolIsRefusedWith401() {
        assertEquals(
                Optional.of(401),
                WsClient.refusal(WsClient.locking(base), Map.of(), List.of("editlock", "bearer.garbage")),
                "a bad token in the subprotocol: 401");
    }

    @Test
    void subprotocolWithoutTokenIsRefusedWith401() {
        assertEquals(
                Optional.of(401),
                WsClient.refusal(WsClient.locking(base), Map.of(), List.of("editlock")),
                "editlock offered, but no token anywhere: 401");
    }

    @Test
    void clientsThatOfferNoSubprotocolStillWork() {
        var sara = DemoLogin.user("Sara");
        try (WsClient client = WsClient.connect(base, sara.token())) {
            assertEquals(sara.id(), client.welcome().path("data").path("userId").asText());
            assertEquals("", client.subprotocol(), "no subprotocol offered, none accepted");
        }
    }
}
