package io.editlock.ws;

import static io.editlock.support.LockFrames.assertExactlyOneReply;
import static io.editlock.support.LockFrames.assertResource;
import static io.editlock.support.LockFrames.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * docs/protocol.md §4: an unlock is answered with {@code lock-released} (then {@code unlock-failed}
 * when nothing is held any more), and watchers get {@code lock-released} with the reason. Broadcasts
 * are proven with a second client.
 *
 * <p>Where a test proves that something did NOT arrive, it first waits for a later frame that the
 * relay sends after it (see {@link LockFrames}), so the absence is not a matter of timing.
 */
@QuarkusTest
class LockReleasedTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @ParameterizedTest
    @EnumSource(LockKind.class)
    void unlockIsAnsweredWithLockReleasedThenUnlockFailed(LockKind kind) {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token())) {
            assertEquals("lock-acquired", event(s.request(kind.lockEvent, kind.data(c, item))));

            String ref = s.send(kind.unlockEvent, kind.data(c, item));
            JsonNode released = s.reply(ref);
            assertEquals("lock-released", event(released), "unlocking a held " + kind + ": " + released);
            assertResource(released.path("data").path("resource"), kind, c, item);
            assertEquals("unlock", released.path("data").path("reason").asText(), "reason of an unlock: " + released);
            assertEquals(sara.id(), released.path("data").path("ownerUserId").asText(), "ownerUserId: " + released);
            assertEquals("Sara", released.path("data").path("ownerUserName").asText(), "ownerUserName: " + released);
            assertExactlyOneReply(s, ref);

            String again = s.send(kind.unlockEvent, kind.data(c, item));
            JsonNode failed = s.reply(again);
            assertEquals("unlock-failed", event(failed), "unlocking what is no longer held: " + failed);
            assertEquals("NOT_HELD", failed.path("data").path("code").asText(), "code: " + failed);
            assertFalse(
                    failed.path("data").path("message").asText().isBlank(), "unlock-failed must say why: " + failed);
            assertEquals(
                    kind.type, failed.path("data").path("resource").path("type").asText(), "resource: " + failed);
            assertExactlyOneReply(s, again);
        }
    }

    @Test
    void unlockOfAnotherUsersLockFailsAndLeavesItHeld() {
        long c = Fixtures.configurator(store);
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient o = WsClient.connect(base, DemoLogin.user("Omar").token())) {
            assertEquals("lock-acquired", event(s.request("lock-configurator", Map.of("configuratorId", c))));

            JsonNode failed = o.request("unlock-configurator", Map.of("configuratorId", c));
            assertEquals("unlock-failed", event(failed), "Omar must not unlock Sara's lock: " + failed);
            assertEquals("NOT_HELD", failed.path("data").path("code").asText(), "code: " + failed);
            JsonNode state = o.request("watch", Map.of("configuratorId", c));
            assertEquals(1, state.path("data").path("locks").size(), "Sara's lock must still be held: " + state);
        }
    }

    @Test
    void watchersGetLockReleasedWithTheReason() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            s.request("lock-configurator", Map.of("configuratorId", c));
            s.request("unlock-configurator", Map.of("configuratorId", c));

            JsonNode released = w.awaitEvent("lock-released");
            assertFalse(released.has("ref"), "a broadcast carries no ref: " + released);
            assertEquals("unlock", released.path("data").path("reason").asText(), "reason: " + released);
            assertEquals(
                    "configurator",
                    released.path("data").path("resource").path("type").asText(),
                    "resource: " + released);
            assertEquals(
                    c,
                    released.path("data")
                            .path("resource")
                            .path("configuratorId")
                            .asLong(),
                    "resource: " + released);
            assertEquals(sara.id(), released.path("data").path("ownerUserId").asText(), "ownerUserId: " + released);
            assertEquals("Sara", released.path("data").path("ownerUserName").asText(), "ownerUserName: " + released);
        }
    }

    /** docs/protocol.md §4: lock-released goes to the requester of an unlock and to every watcher — once each. */
    @Test
    void theUnlockerGetsLockReleasedOnceAsItsReply() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            s.request("lock-configurator", Map.of("configuratorId", c));
            JsonNode reply = s.request("unlock-configurator", Map.of("configuratorId", c));
            assertEquals("lock-released", event(reply), "unlock: " + reply);

            w.awaitEvent("lock-released");
            // The relay sends a change's lock-released before its lock-updated: once Sara (who watches
            // what she locked) has the empty lock-updated, a broadcast lock-released would be there too.
            s.awaitEvent(frame -> "lock-updated".equals(event(frame))
                    && frame.path("data").path("locks").isEmpty());
            List<JsonNode> released = s.events("lock-released");
            assertEquals(1, released.size(), "the unlocker gets lock-released once, as its reply: " + s.received());
            assertTrue(released.get(0).has("ref"), "and that one is the reply: " + released);
        }
    }
}
