package io.editlock.waiting;

import static io.editlock.support.Sockets.filters;
import static io.editlock.support.Sockets.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.support.Api;
import io.editlock.support.AuditLines;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §13: "A accepts, or does not answer before the deadline: the lock passes to B".
 * The sweep that resolves due requests never comes here, so an answer after the deadline reaches a
 * request that is still stored: it must not refuse, whatever it says.
 */
@QuarkusTest
@TestProfile(LateTakeoverAnswerTest.NoSweep.class)
class LateTakeoverAnswerTest {

    public static class NoSweep implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("editlock.waiting.consent-window", "1s", "editlock.waiting.sweep-interval", "1h");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @ParameterizedTest(name = "accept {0}")
    @ValueSource(booleans = {false, true})
    void anAnswerAfterTheDeadlineHandsThePageOver(boolean accept) {
        TestUser anna = DemoLogin.user("Anna");
        long c = Api.configurator(anna);
        long item = Api.item(anna, c, null);
        try (Sockets sockets = new Sockets();
                AuditLines audit = AuditLines.capture()) {
            WsClient annaSocket = sockets.connect(base, anna);
            WsClient ben = sockets.connect(base, DemoLogin.user("Ben"));
            JsonNode held = annaSocket.request("lock-item-subresource", page(item));
            assertEquals("lock-acquired", held.path("event").asText(), held.toString());
            JsonNode pending = ben.request("request-takeover", Map.of("resource", filters(item)));
            assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
            annaSocket.awaitEvent("takeover-requested");
            Instant deadline =
                    Instant.parse(pending.path("data").path("deadline").asText());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> Instant.now().isAfter(deadline.plusMillis(100)));

            JsonNode answer =
                    annaSocket.request("answer-takeover", Map.of("resource", filters(item), "accept", accept));

            if (accept) {
                assertEquals("takeover-answered", answer.path("event").asText(), answer.toString());
            } else {
                assertEquals("NOT_FOUND", answer.path("data").path("code").asText(), "too late to refuse: " + answer);
            }
            JsonNode granted = ben.awaitEvent("takeover-granted");
            assertEquals(
                    item,
                    granted.path("data")
                            .path("lock")
                            .path("resource")
                            .path("itemId")
                            .asLong(),
                    granted.toString());
            JsonNode lost = annaSocket.awaitEvent("lock-lost");
            assertEquals("taken-over", lost.path("data").path("reason").asText(), lost.toString());
            assertTrue(ben.events("takeover-refused").isEmpty(), "Ben was told a refusal: " + ben.received());
            // In the audit log and the metric, as the sweep would have counted it: no answer in time.
            audit.await(
                    "the late answer audited as a timeout",
                    line -> line.startsWith("takeover-timeout ") && line.contains("item:" + item + ":filters"));
        }
    }
}
