package io.editlock.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.RedisIndependent;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/socketio.md: a session keeps the Origin and the token of the request that opened it, and the
 * handshake takes no token, so values no client sends are refused there (400, Engine.IO's "Bad request")
 * rather than kept: an Origin over 2 KB, a token over 8 KB.
 */
@QuarkusTest
@RedisIndependent
class EngineIoHandshakeSizesTest {

    @Inject
    EngineSessions sessions;

    @ParameterizedTest(name = "{0} of {1} characters: {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "Origin                 | 2048  | 200",
                "Origin                 | 2049  | origin-too-long",
                "Origin                 | 15000 | origin-too-long",
                "Authorization          | 8192  | 200",
                "Authorization          | 8193  | token-too-long",
                "Sec-WebSocket-Protocol | 8193  | token-too-long"
            })
    void absurdValuesAreRefusedAtTheHandshake(String header, int length, String outcome) {
        Map<String, String> headers = Map.of(header, valueOf(header, length));
        if (outcome.equals("200")) {
            EngineIoClient.of(EngineIoClient.open(headers)).close();
            return;
        }
        int before = sessions.count();
        double counted = HandshakeRefusalCounts.of(outcome);

        Response refused = EngineIoClient.open(headers);

        refused.then().statusCode(400);
        assertEquals("{\"code\":3,\"message\":\"Bad request\"}", refused.asString(), header + " of " + length);
        // Sessions of earlier tests may end meanwhile; none may be added.
        assertTrue(sessions.count() <= before, "a refused handshake opens no session");
        assertEquals(counted + 1, HandshakeRefusalCounts.of(outcome), "refusal counted as " + outcome);
    }

    /** An Origin of {@code length} characters, or a token of {@code length} characters as the header carries it. */
    private static String valueOf(String header, int length) {
        return switch (header) {
            case "Origin" -> "https://" + "a".repeat(length - "https://".length());
            case "Authorization" -> "Bearer " + "t".repeat(length);
            case "Sec-WebSocket-Protocol" -> "editlock, bearer." + "t".repeat(length);
            default -> throw new IllegalArgumentException(header);
        };
    }
}
