package io.editlock.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class LockingSmokeTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Test
    void locksAndBroadcasts() {
        long c = Fixtures.configurator(store);
        var sara = DemoLogin.user("Sara");
        var omar = DemoLogin.user("Omar");
        try (WsClient s = WsClient.connect(base, sara.token());
                WsClient o = WsClient.connect(base, omar.token())) {
            assertEquals(sara.id(), s.welcome().path("data").path("userId").asText());
            JsonNode watched = o.request("watch", Map.of("configuratorId", c));
            assertEquals("lock-updated", watched.path("event").asText());
            JsonNode acquired = s.request("lock-configurator", Map.of("configuratorId", c));
            assertEquals("lock-acquired", acquired.path("event").asText(), acquired.toString());
            JsonNode update = o.awaitEvent(f -> f.path("event").asText().equals("lock-updated")
                    && f.path("data").path("locks").size() == 1);
            assertEquals(
                    "Sara",
                    update.path("data")
                            .path("locks")
                            .get(0)
                            .path("ownerUserName")
                            .asText());
            JsonNode failed = o.request("lock-configurator", Map.of("configuratorId", c));
            assertEquals(
                    "Currently edited by Sara",
                    failed.path("data").path("message").asText(),
                    failed.toString());
            s.closeCleanly();
            JsonNode released = o.awaitEvent("lock-released");
            assertEquals("disconnect", released.path("data").path("reason").asText());
        }
    }
}
