package io.editlock.ws;

import static io.editlock.support.LockFrames.assertExactlyOneReply;
import static io.editlock.support.LockFrames.awaitState;
import static io.editlock.support.LockFrames.event;
import static io.editlock.support.LockFrames.mentions;
import static io.editlock.support.LockFrames.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.LockFrames;
import io.editlock.support.LockKind;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * docs/protocol.md §4: {@code watch} is answered with the configurator's current locks, and a watcher
 * then gets the whole state after every change until it unwatches. Broadcasts are proven with a
 * second client.
 *
 * <p>Where a test proves that something did NOT arrive, it first waits for a later frame that the
 * relay sends after it (see {@link LockFrames}), so the absence is not a matter of timing.
 */
@QuarkusTest
class WatchTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Test
    void watchIsAnsweredWithTheCurrentStateWithoutTokens() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            s.request("lock-variables", Map.of("configuratorId", c));
            s.request("lock-item-subresource", Map.of("itemId", item, "page", "attributes"));

            String ref = w.send("watch", Map.of("configuratorId", c));
            JsonNode state = w.reply(ref);
            assertEquals("lock-updated", event(state), "watch is answered with lock-updated: " + state);
            assertEquals(c, state.path("data").path("configuratorId").asLong(), "configuratorId: " + state);
            assertEquals(
                    Set.of("variables", "item-subresource"),
                    types(state.path("data").path("locks")),
                    "watch must answer every current lock of the configurator: " + state);
            for (JsonNode lock : state.path("data").path("locks")) {
                assertFalse(lock.has("token"), "a watcher must never see a fencing token: " + state);
                assertEquals(sara.id(), lock.path("ownerUserId").asText(), "ownerUserId: " + state);
                assertEquals("Sara", lock.path("ownerUserName").asText(), "ownerUserName: " + state);
                Instant.parse(lock.path("acquiredAt").asText());
                Instant.parse(lock.path("expiresAt").asText());
            }
            assertExactlyOneReply(w, ref);
        }
    }

    @Test
    void watchOfAnUnknownConfiguratorIsNotFound() {
        try (WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            String ref = w.send("watch", Map.of("configuratorId", 9_007_199_254_740_991L));
            JsonNode error = w.reply(ref);
            assertEquals("error", event(error), "watch of a configurator that does not exist: " + error);
            assertEquals("NOT_FOUND", error.path("data").path("code").asText(), "code: " + error);
            assertExactlyOneReply(w, ref);
        }
    }

    @Test
    void watchersGetTheWholeStateAfterEveryChange() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));

            s.request("lock-variables", Map.of("configuratorId", c));
            awaitState(w, c, Set.of("variables"));
            s.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
            awaitState(w, c, Set.of("variables", "item-subresource"));
            s.request("unlock-variables", Map.of("configuratorId", c));
            JsonNode last = awaitState(w, c, Set.of("item-subresource"));

            assertFalse(last.has("ref"), "a broadcast carries no ref: " + last);
            assertFalse(
                    last.path("data").path("locks").get(0).has("token"),
                    "a broadcast never shows a fencing token: " + last);
        }
    }

    /**
     * docs/protocol.md §4: the {@code watch} reply and the broadcasts show a lock alike. They are made on
     * two roads (the reply reads the configurator's records, a broadcast carries the view the script
     * published), so a field of a lock that one road carries and the other drops would show a watcher
     * a lock that changes as it watches. {@code expiresAt} is left out of the comparison: a renewal
     * moves it without a broadcast.
     */
    @Test
    void theWatchReplyAndTheBroadcastsShowALockAlike() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            s.request("lock-variables", Map.of("configuratorId", c));
            s.request("lock-item-subresource", Map.of("itemId", item, "page", "attributes"));
            JsonNode watched = w.request("watch", Map.of("configuratorId", c));

            s.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
            // The broadcast of the third lock: one of Sara's second may still reach Wu, who watched meanwhile.
            JsonNode broadcast = w.awaitEvent(frame -> "lock-updated".equals(event(frame))
                    && !frame.has("ref")
                    && frame.path("data").path("locks").size() == 3);
            try (WsClient later = WsClient.connect(base, DemoLogin.user("Lea").token())) {
                JsonNode watchedLater = later.request("watch", Map.of("configuratorId", c));

                assertEquals(byResource(broadcast), byResource(watchedLater), "a later watch reply and the broadcast");
                Map<JsonNode, JsonNode> before = byResource(watched);
                assertEquals(2, before.size(), "the first watch reply: " + watched);
                before.forEach((resource, lock) -> assertEquals(
                        lock, byResource(broadcast).get(resource), "the watch reply and the broadcast: " + resource));
            }
        }
    }

    /** A state's locks by their resource, each without {@code expiresAt} (which it must carry). */
    private static Map<JsonNode, JsonNode> byResource(JsonNode state) {
        Map<JsonNode, JsonNode> locks = new HashMap<>();
        for (JsonNode lock : state.path("data").path("locks")) {
            assertTrue(lock.has("expiresAt"), "a lock shows its expiresAt: " + state);
            ObjectNode shown = lock.deepCopy();
            shown.remove("expiresAt");
            locks.put(lock.path("resource"), shown);
        }
        return locks;
    }

    /**
     * docs/protocol.md §4: a socket that locks anything in a configurator also watches it, so it hears
     * the change its own grant made, whichever kind it locked. An item page names no configurator in
     * its request; the server finds it.
     */
    @ParameterizedTest
    @EnumSource(LockKind.class)
    void aSocketThatLocksWatchesTheConfiguratorFromItsOwnGrantOn(LockKind kind) {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            s.request(kind.lockEvent, kind.data(c, item));

            awaitState(s, c, Set.of(kind.type));
        }
    }

    @Test
    void unwatchIsIdempotentAndStopsBroadcasts() {
        long c = Fixtures.configurator(store);
        long other = Fixtures.configurator(store);
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            w.request("watch", Map.of("configuratorId", other));

            for (long id : new long[] {c, c, 9_007_199_254_740_991L}) {
                String ref = w.send("unwatch", Map.of("configuratorId", id));
                JsonNode reply = w.reply(ref);
                assertEquals(
                        "unwatched", event(reply), "unwatch of " + id + " (idempotent, also when unknown): " + reply);
                assertEquals(
                        id,
                        reply.path("data").path("configuratorId").asLong(),
                        "unwatched names the configurator: " + reply);
                assertExactlyOneReply(w, ref);
            }
            int framesBefore = w.received().size();

            s.request("lock-configurator", Map.of("configuratorId", c));
            s.request("unlock-configurator", Map.of("configuratorId", c));
            s.request("lock-variables", Map.of("configuratorId", other));
            awaitState(w, other, Set.of("variables"));

            List<JsonNode> after =
                    w.received().subList(framesBefore, w.received().size());
            assertTrue(
                    after.stream().noneMatch(f -> mentions(f, c)),
                    "after unwatch no broadcast of that configurator may arrive: " + after);
        }
    }
}
