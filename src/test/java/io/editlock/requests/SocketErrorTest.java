package io.editlock.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §4 "Codes": every refusal answered with an {@code error} event carries the code a
 * client acts on and the message a person reads, exactly as written here. Plain JUnit: the mapping
 * is pure.
 */
class SocketErrorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(
                        new SocketError.BadRequest("event must be a string"), "BAD_REQUEST", "event must be a string"),
                Arguments.of(
                        new SocketError.FrameRateExceeded(200),
                        "RATE_LIMITED",
                        "More than 200 requests a second on this socket; this one was not processed"),
                Arguments.of(
                        new SocketError.WatchLimitReached(100),
                        "LIMIT_EXCEEDED",
                        "This socket already watches 100 configurators, the most allowed; unwatch one first"),
                Arguments.of(new SocketError.WaitLimitReached(20), "LIMIT_EXCEEDED", "You wait in 20 lines already"),
                Arguments.of(new SocketError.NoConfigurator(12), "NOT_FOUND", "No configurator 12"),
                Arguments.of(
                        new SocketError.NoTakeoverToAnswer(),
                        "NOT_FOUND",
                        "No take-over request for this resource is waiting for your answer"),
                Arguments.of(
                        new SocketError.ResumeFailed(),
                        "RESUME_FAILED",
                        "This resumeToken cannot be resumed (unknown, expired, used, another user's, or its socket is still open)"),
                Arguments.of(
                        new SocketError.ReauthRefused(),
                        "UNAUTHORIZED",
                        "This token cannot renew the socket (invalid, expired, or another user's); the socket keeps its token"),
                Arguments.of(new SocketError.StoreUnreachable(), "UNAVAILABLE", "The lock store cannot be reached"),
                Arguments.of(new SocketError.Internal(), "INTERNAL", "The request could not be processed"));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("refusals")
    void becomesAnErrorEventWithItsCodeAndMessage(SocketError refusal, String code, String message) throws Exception {
        JsonNode frame = JSON.readTree(SocketError.frame(refusal, "r1"));
        assertEquals("error", frame.path("event").asText(), "event of " + refusal);
        assertEquals(code, frame.path("data").path("code").asText(), "code of " + refusal);
        assertEquals(message, frame.path("data").path("message").asText(), "message of " + refusal);
        assertEquals("r1", frame.path("ref").asText(), "the request's ref comes back with " + refusal);
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("refusals")
    void carriesNoRefWhenTheRequestHadNone(SocketError refusal, String code, String message) throws Exception {
        JsonNode frame = JSON.readTree(SocketError.frame(refusal, null));
        assertFalse(frame.has("ref"), "an error without a ref: " + frame);
    }
}
