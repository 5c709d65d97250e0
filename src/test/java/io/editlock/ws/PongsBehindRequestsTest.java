package io.editlock.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.FrozenRedis;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4 and §5: a socket whose requests wait on a store that does not answer still gets
 * one reply to each, and is not taken for dead meanwhile. A socket's frames are handled one after
 * another, so its pongs wait behind the requests sent before them; the client did answer.
 */
@QuarkusTest
@TestProfile(PongsBehindRequestsTest.FrozenRedisShortPings.class)
class PongsBehindRequestsTest {

    /** The store gives up after 1 s; a socket answering no ping for 1.5 s is dropped. */
    public static class FrozenRedisShortPings extends FrozenRedis {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("editlock.websocket.ping-interval", "300ms");
            overrides.put("editlock.websocket.ping-timeout", "1500ms");
            return overrides;
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Test
    void requestsWaitingOnAFrozenStoreGetTheirRepliesAndTheSocketStaysOpen() {
        long c = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            sara.welcome();
            FrozenRedis.freeze();
            try {
                // Each waits out the store's timeout in turn: together longer than the ping timeout.
                List<String> refs = IntStream.range(0, 4)
                        .mapToObj(i -> sara.send("watch", Map.of("configuratorId", c)))
                        .toList();
                for (String ref : refs) {
                    JsonNode reply = sara.reply(ref);
                    assertEquals("UNAVAILABLE", reply.path("data").path("code").asText(), reply.toString());
                }
            } finally {
                FrozenRedis.thaw();
            }
            assertFalse(sara.isClosed(), "a socket that answered every ping was closed: " + sara.closeReason());
            assertEquals(
                    "lock-updated",
                    sara.request("watch", Map.of("configuratorId", c))
                            .path("event")
                            .asText());
        }
    }
}
