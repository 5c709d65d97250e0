package io.editlock.ws;

import static io.editlock.support.LockFrames.awaitState;
import static io.editlock.support.LockFrames.event;
import static io.editlock.support.LockFrames.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.LockFrames;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: a user holds one configurator at a time: locking a second one releases the
 * first (reason {@code replaced}: {@code lock-lost} to the user's other sockets, {@code lock-released}
 * to watchers); a refused second one keeps the first.
 *
 * <p>Where a test proves that something did NOT arrive, it first waits for a later frame that the
 * relay sends after it (see {@link LockFrames}), so the absence is not a matter of timing.
 */
@QuarkusTest
class ReplacedConfiguratorTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Test
    void lockingASecondConfiguratorReleasesTheFirst() {
        long c1 = Fixtures.configurator(store);
        long c2 = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token());
                WsClient tab2 = WsClient.connect(base, sara.token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c1));
            tab1.request("lock-configurator", Map.of("configuratorId", c1));
            tab1.request("lock-variables", Map.of("configuratorId", c1));
            awaitState(w, c1, Set.of("configurator", "variables"));

            JsonNode acquired = tab1.request("lock-configurator", Map.of("configuratorId", c2));
            assertEquals("lock-acquired", event(acquired), "the second configurator must be granted: " + acquired);
            JsonNode released = acquired.path("data").path("released");
            assertEquals(1, released.size(), "released must list what the one-configurator rule took: " + acquired);
            assertEquals("configurator", released.get(0).path("type").asText(), "released[0]: " + acquired);
            assertEquals(c1, released.get(0).path("configuratorId").asLong(), "released[0]: " + acquired);

            JsonNode lost = tab2.awaitEvent("lock-lost");
            assertEquals(
                    "replaced",
                    lost.path("data").path("reason").asText(),
                    "other sockets of the user: lock-lost replaced: " + lost);
            assertEquals(
                    c1,
                    lost.path("data").path("resource").path("configuratorId").asLong(),
                    "lock-lost resource: " + lost);
            JsonNode gone = w.awaitEvent("lock-released");
            assertEquals(
                    "replaced", gone.path("data").path("reason").asText(), "watchers: lock-released replaced: " + gone);
            assertEquals(
                    "configurator",
                    gone.path("data").path("resource").path("type").asText(),
                    "lock-released resource: " + gone);
            JsonNode state = awaitState(w, c1, Set.of("variables"));
            assertEquals(
                    "variables",
                    state.path("data")
                            .path("locks")
                            .get(0)
                            .path("resource")
                            .path("type")
                            .asText(),
                    "variables are not affected by the one-configurator rule: " + state);

            awaitState(tab1, c1, Set.of("variables")); // tab1 watches c1: its lock-lost would have come before this
            assertTrue(
                    tab1.events("lock-lost").isEmpty(),
                    "the socket whose lock-acquired listed the release must not get lock-lost: " + tab1.received());
        }
    }

    @Test
    void refusedSecondConfiguratorKeepsTheFirst() {
        long c1 = Fixtures.configurator(store);
        long c2 = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token());
                WsClient o = WsClient.connect(base, DemoLogin.user("Omar").token())) {
            s.request("lock-configurator", Map.of("configuratorId", c1));
            o.request("lock-configurator", Map.of("configuratorId", c2));

            JsonNode failed = s.request("lock-configurator", Map.of("configuratorId", c2));
            assertEquals("LOCKED", failed.path("data").path("code").asText(), "c2 is Omar's: " + failed);
            JsonNode state = o.request("watch", Map.of("configuratorId", c1));
            assertEquals(
                    Set.of("configurator"),
                    types(state.path("data").path("locks")),
                    "a refused switch keeps c1: " + state);
            assertEquals(
                    sara.id(),
                    state.path("data").path("locks").get(0).path("ownerUserId").asText(),
                    "still Sara's: " + state);
        }
    }
}
