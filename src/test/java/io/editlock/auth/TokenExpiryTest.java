package io.editlock.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §3 and §5: a socket lives no longer than its token. At {@code exp} the server
 * closes it with 4401 ({@code token expired}), a drop: its locks wait out the grace period and a new
 * socket with a fresh token resumes them, same grants.
 */
@QuarkusTest
class TokenExpiryTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Test
    void socketIsClosedWith4401WhenItsTokenEndsAndAFreshTokenResumesItsLocks() {
        long c = Fixtures.configurator(store);
        String userId = "sara-" + UUID.randomUUID();
        String shortLived = ServerSigned.sign(
                ServerSigned.claims(userId, "Sara").expiresAt(Instant.now().plusSeconds(5)));
        try (WsClient first = WsClient.connect(base, shortLived);
                WsClient watcher = WsClient.connect(base, fresh("wu"))) {
            String resumeToken = first.resumeToken();
            JsonNode acquired = first.request("lock-configurator", Map.of("configuratorId", c));
            assertEquals("lock-acquired", acquired.path("event").asText(), "control: the lock is granted: " + acquired);
            watcher.request("watch", Map.of("configuratorId", c));

            assertEquals(4401, awaitClosed(first), "the server must close a socket whose token ended with 4401");
            assertEquals("token expired", first.closeReason(), "the close reason says why");
            assertTrue(
                    watcher.events("lock-released").isEmpty(),
                    "a socket closed for its token is a drop: its locks wait for a resume: " + watcher.received());

            try (WsClient second = WsClient.connect(base, ServerSigned.sign(ServerSigned.claims(userId, "Sara")))) {
                second.welcome();
                JsonNode resumed = second.request("resume", Map.of("resumeToken", resumeToken));
                assertEquals(
                        "resumed",
                        resumed.path("event").asText(),
                        "a fresh token resumes the dropped socket: " + resumed);
                JsonNode lock = resumed.path("data").path("locks").path(0);
                assertEquals(
                        acquired.path("data").path("lock").path("token").asLong(),
                        lock.path("token").asLong(),
                        "the same grant comes back: " + resumed);
            }
            assertTrue(watcher.events("lock-released").isEmpty(), "resumed, never released: " + watcher.received());
        }
    }

    @Test
    void socketOfALongLivedTokenStaysOpen() {
        String token = ServerSigned.sign(ServerSigned.claims("omar-" + UUID.randomUUID(), "Omar")
                .expiresAt(Instant.now().plusSeconds(30)));
        try (WsClient client = WsClient.connect(base, token)) {
            client.welcome();
            WsClient.stays(
                    () -> !client.isClosed(),
                    Duration.ofSeconds(4),
                    "a socket whose token has not ended must stay open");
            assertEquals(
                    "touched", client.request("touch", Map.of()).path("event").asText());
        }
    }

    private static int awaitClosed(WsClient client) {
        return client.awaitClosedByServer(Duration.ofSeconds(15));
    }

    private static String fresh(String name) {
        return ServerSigned.sign(ServerSigned.claims(name + "-" + UUID.randomUUID(), name));
    }
}
