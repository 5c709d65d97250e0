package io.editlock.ws;

import static io.editlock.support.LockFrames.awaitState;
import static io.editlock.support.LockFrames.event;
import static io.editlock.support.LockFrames.isEvent;
import static io.editlock.support.LockFrames.mentions;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: when a lock is released, the holder's other sockets get {@code lock-lost}, even
 * one that no longer watches the configurator; the socket whose own request released it does not.
 *
 * <p>Where a test proves that something did NOT arrive, it first waits for a later frame that the
 * relay sends after it (see {@link LockFrames}), so the absence is not a matter of timing.
 */
@QuarkusTest
class LockLostTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Test
    void otherSocketsOfTheHolderGetLockLostButNotTheUnlocker() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token());
                WsClient tab2 = WsClient.connect(base, sara.token());
                WsClient tab3 = WsClient.connect(base, sara.token())) {
            tab1.request("lock-configurator", Map.of("configuratorId", c));

            // Any socket of the holder may unlock: here the one that did not lock it.
            JsonNode released = tab2.request("unlock-configurator", Map.of("configuratorId", c));
            assertEquals("lock-released", event(released), "any socket of the holder may unlock: " + released);

            for (WsClient other : List.of(tab1, tab3)) {
                JsonNode lost = other.awaitEvent("lock-lost");
                assertEquals("unlock", lost.path("data").path("reason").asText(), "lock-lost reason: " + lost);
                assertEquals(
                        "configurator",
                        lost.path("data").path("resource").path("type").asText(),
                        "lock-lost resource: " + lost);
                assertEquals(
                        c,
                        lost.path("data")
                                .path("resource")
                                .path("configuratorId")
                                .asLong(),
                        "lock-lost resource: " + lost);
            }
            // The relay sends a change's lock-lost frames before its lock-updated to the watchers (tab1).
            awaitState(tab1, c, Set.of());
            assertTrue(
                    tab2.events("lock-lost").isEmpty(),
                    "the socket whose own unlock released it must not get lock-lost: " + tab2.received());
        }
    }

    @Test
    void lockLostStillReachesASocketThatUnwatched() {
        long c = Fixtures.configurator(store);
        long other = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token());
                WsClient tab2 = WsClient.connect(base, sara.token())) {
            tab1.request("lock-configurator", Map.of("configuratorId", c));
            tab2.request("lock-configurator", Map.of("configuratorId", c)); // re-entry: tab2 keeps and watches it too
            assertEquals("unwatched", event(tab2.request("unwatch", Map.of("configuratorId", c))));
            tab2.request("watch", Map.of("configuratorId", other));
            int framesBefore = tab2.received().size();

            tab1.request("unlock-configurator", Map.of("configuratorId", c));
            tab1.request("lock-variables", Map.of("configuratorId", other)); // published after the unlock: a barrier

            JsonNode lost = tab2.awaitEvent("lock-lost");
            assertEquals(
                    "unlock",
                    lost.path("data").path("reason").asText(),
                    "lock-lost reaches every other socket of the holder: " + lost);
            awaitState(tab2, other, Set.of("variables"));
            List<JsonNode> after =
                    tab2.received().subList(framesBefore, tab2.received().size());
            assertTrue(
                    after.stream().filter(f -> mentions(f, c)).allMatch(isEvent("lock-lost")),
                    "after unwatch only lock-lost may arrive about that configurator: " + after);
        }
    }
}
