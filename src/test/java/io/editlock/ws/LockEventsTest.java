package io.editlock.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * docs/protocol.md §4 over the wire: every client event gets exactly one direct reply carrying its ref, and
 * every change reaches the other sockets as the contract says. Broadcasts are proven with a second
 * client. Where a test proves that something did NOT arrive, it first waits for a later frame that
 * the relay sends after it (the relay sends one change's frames in order, and changes in the order
 * Redis published them), so the absence is not a matter of timing.
 */
@QuarkusTest
class LockEventsTest {

    @TestHTTPResource("/")
    URI base;
    @Inject
    ConfiguratorStore store;

    /** The three lockable kinds of docs/protocol.md §1, with their events and what the server must echo. */
    enum Kind {
        CONFIGURATOR("lock-configurator", "unlock-configurator", "configurator"),
        VARIABLES("lock-variables", "unlock-variables", "variables"),
        ITEM_PAGE("lock-item-subresource", "unlock-item-subresource", "item-subresource");

        final String lockEvent;
        final String unlockEvent;
        final String type;

        Kind(String lockEvent, String unlockEvent, String type) {
            this.lockEvent = lockEvent;
            this.unlockEvent = unlockEvent;
            this.type = type;
        }

        Map<String, Object> data(long configurator, long item) {
            return this == ITEM_PAGE ? Map.of("itemId", item, "page", "filters") : Map.of("configuratorId", configurator);
        }
    }

    // --- direct replies -----------------------------------------------------------------------

    @Test
    void welcomeComesFirstWithTheSocketAndTheUser() {
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token())) {
            s.welcome();
            JsonNode first = s.received().get(0);
            assertEquals("welcome", event(first), "the first frame of every socket must be welcome: " + s.received());
            assertFalse(first.has("ref"), "welcome is not a reply: " + first);
            JsonNode data = first.path("data");
            assertFalse(data.path("socketId").asText().isBlank(), "welcome must carry the socketId: " + first);
            assertEquals(sara.id(), data.path("userId").asText(), "welcome must name the user of the token: " + first);
            assertEquals("Sara", data.path("userName").asText(), "welcome must carry the display name: " + first);
            assertFalse(data.path("resumeToken").asText().isBlank(), "welcome must carry a resumeToken: " + first);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void lockIsAnsweredWithTheWholeLock(Kind kind) {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token())) {
            String ref = s.send(kind.lockEvent, kind.data(c, item));
            JsonNode reply = s.reply(ref);

            assertEquals("lock-acquired", event(reply), kind + " must be granted: " + reply);
            JsonNode lock = reply.path("data").path("lock");
            assertResource(lock.path("resource"), kind, c, item);
            assertTrue(lock.path("token").isIntegralNumber() && lock.path("token").asLong() > 0,
                    "the holder's own lock-acquired must carry a positive fencing token: " + reply);
            assertEquals(sara.id(), lock.path("ownerUserId").asText(), "ownerUserId: " + reply);
            assertEquals("Sara", lock.path("ownerUserName").asText(), "ownerUserName: " + reply);
            Instant acquiredAt = Instant.parse(lock.path("acquiredAt").asText());
            Instant expiresAt = Instant.parse(lock.path("expiresAt").asText());
            assertTrue(expiresAt.isAfter(acquiredAt), "the lease must end after the grant: " + reply);
            assertTrue(reply.path("data").path("released").isArray() && reply.path("data").path("released").isEmpty(),
                    "nothing was taken away, so released must be []: " + reply);
            assertExactlyOneReply(s, ref);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void unlockIsAnsweredWithLockReleasedThenUnlockFailed(Kind kind) {
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
            assertFalse(failed.path("data").path("message").asText().isBlank(), "unlock-failed must say why: " + failed);
            assertEquals(kind.type, failed.path("data").path("resource").path("type").asText(), "resource: " + failed);
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
    void watchIsAnsweredWithTheCurrentStateWithoutTokens() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token()); WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            s.request("lock-variables", Map.of("configuratorId", c));
            s.request("lock-item-subresource", Map.of("itemId", item, "page", "attributes"));

            String ref = w.send("watch", Map.of("configuratorId", c));
            JsonNode state = w.reply(ref);
            assertEquals("lock-updated", event(state), "watch is answered with lock-updated: " + state);
            assertEquals(c, state.path("data").path("configuratorId").asLong(), "configuratorId: " + state);
            assertEquals(Set.of("variables", "item-subresource"), types(state.path("data").path("locks")),
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
    void touchIsAnsweredWithAndWithoutData() {
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            String withData = s.send("touch", Map.of());
            assertEquals("touched", event(s.reply(withData)), "touch with {} must be answered with touched");
            String withoutData = s.send("touch", null);
            assertEquals("touched", event(s.reply(withoutData)), "touch without data must be answered with touched");
            s.sendRaw("{\"event\":\"touch\",\"data\":null,\"ref\":\"null-data\"}");
            assertEquals("touched", event(s.reply("null-data")), "data null is the same as no data");
            assertExactlyOneReply(s, withData);
            assertExactlyOneReply(s, withoutData);
        }
    }

    @Test
    void emptyRefIsValidAndEchoed() {
        long c = Fixtures.configurator(store);
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            s.send("lock-configurator", Map.of("configuratorId", c), "");
            JsonNode reply = s.reply("");
            assertEquals("lock-acquired", event(reply), "a ref of \"\" is a valid ref: " + reply);
            assertTrue(reply.path("ref").isTextual() && reply.path("ref").asText().isEmpty(), "the empty ref must be echoed: " + reply);
            assertExactlyOneReply(s, "");
        }
    }

    @Test
    void lockedRefusalNamesTheHolderAndTheBlockingLock() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token()); WsClient o = WsClient.connect(base, DemoLogin.user("Omar").token())) {
            assertEquals("lock-acquired", event(s.request("lock-configurator", Map.of("configuratorId", c))));

            String ref = o.send("lock-item-subresource", Map.of("itemId", item, "page", "dependencies"));
            JsonNode failed = o.reply(ref);
            JsonNode data = failed.path("data");
            assertEquals("lock-failed", event(failed), "a page of a configurator another user holds: " + failed);
            assertEquals("LOCKED", data.path("code").asText(), "code: " + failed);
            assertEquals("Currently edited by Sara", data.path("message").asText(), "message: " + failed);
            assertEquals("Sara", data.path("lockedBy").asText(), "lockedBy: " + failed);
            assertEquals(sara.id(), data.path("lockedByUserId").asText(), "lockedByUserId: " + failed);
            JsonNode resource = data.path("resource");
            assertEquals("item-subresource", resource.path("type").asText(), "resource must be what was requested: " + failed);
            assertEquals(item, resource.path("itemId").asLong(), "resource.itemId: " + failed);
            assertEquals("dependencies", resource.path("page").asText(), "resource.page: " + failed);
            assertEquals(c, resource.path("configuratorId").asLong(), "the server knows the item's configurator: " + failed);
            JsonNode blocking = data.path("blocking");
            assertEquals("configurator", blocking.path("resource").path("type").asText(), "blocking must be Sara's lock: " + failed);
            assertEquals(c, blocking.path("resource").path("configuratorId").asLong(), "blocking.resource: " + failed);
            assertEquals(sara.id(), blocking.path("ownerUserId").asText(), "blocking.ownerUserId: " + failed);
            assertEquals("Sara", blocking.path("ownerUserName").asText(), "blocking.ownerUserName: " + failed);
            Instant.parse(blocking.path("acquiredAt").asText());
            Instant.parse(blocking.path("expiresAt").asText());
            assertFalse(blocking.has("token"), "another user's fencing token must never be shown: " + failed);
            assertExactlyOneReply(o, ref);
        }
    }

    @Test
    void unknownItemOrConfiguratorIsNotFound() {
        long unknown = 9_007_199_254_740_991L;
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            for (String event : List.of("lock-configurator", "lock-variables")) {
                String ref = s.send(event, Map.of("configuratorId", unknown));
                JsonNode failed = s.reply(ref);
                assertEquals("lock-failed", event(failed), event + " of an unknown configurator: " + failed);
                assertEquals("NOT_FOUND", failed.path("data").path("code").asText(), "code: " + failed);
                assertEquals(unknown, failed.path("data").path("resource").path("configuratorId").asLong(), "resource: " + failed);
                assertExactlyOneReply(s, ref);
            }
            String ref = s.send("lock-item-subresource", Map.of("itemId", unknown, "page", "filters"));
            JsonNode failed = s.reply(ref);
            assertEquals("lock-failed", event(failed), "an unknown item: " + failed);
            assertEquals("NOT_FOUND", failed.path("data").path("code").asText(), "code: " + failed);
            JsonNode resource = failed.path("data").path("resource");
            assertEquals("item-subresource", resource.path("type").asText(), "resource: " + failed);
            assertEquals(unknown, resource.path("itemId").asLong(), "resource.itemId: " + failed);
            assertEquals("filters", resource.path("page").asText(), "resource.page: " + failed);
            assertFalse(resource.has("configuratorId"), "an item that does not exist has no configuratorId: " + failed);
            assertExactlyOneReply(s, ref);
        }
    }

    // --- broadcasts ---------------------------------------------------------------------------

    @Test
    void watchersGetTheWholeStateAfterEveryChange() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token()); WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));

            s.request("lock-variables", Map.of("configuratorId", c));
            awaitState(w, c, Set.of("variables"));
            s.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
            awaitState(w, c, Set.of("variables", "item-subresource"));
            s.request("unlock-variables", Map.of("configuratorId", c));
            JsonNode last = awaitState(w, c, Set.of("item-subresource"));

            assertFalse(last.has("ref"), "a broadcast carries no ref: " + last);
            assertFalse(last.path("data").path("locks").get(0).has("token"), "a broadcast never shows a fencing token: " + last);
        }
    }

    @Test
    void watchersGetLockReleasedWithTheReason() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token()); WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            s.request("lock-configurator", Map.of("configuratorId", c));
            s.request("unlock-configurator", Map.of("configuratorId", c));

            JsonNode released = w.awaitEvent("lock-released");
            assertFalse(released.has("ref"), "a broadcast carries no ref: " + released);
            assertEquals("unlock", released.path("data").path("reason").asText(), "reason: " + released);
            assertEquals("configurator", released.path("data").path("resource").path("type").asText(), "resource: " + released);
            assertEquals(c, released.path("data").path("resource").path("configuratorId").asLong(), "resource: " + released);
            assertEquals(sara.id(), released.path("data").path("ownerUserId").asText(), "ownerUserId: " + released);
            assertEquals("Sara", released.path("data").path("ownerUserName").asText(), "ownerUserName: " + released);
        }
    }

    /** docs/protocol.md §4: lock-released goes to the requester of an unlock and to every watcher — once each. */
    @Test
    void theUnlockerGetsLockReleasedOnceAsItsReply() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token()); WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            s.request("lock-configurator", Map.of("configuratorId", c));
            JsonNode reply = s.request("unlock-configurator", Map.of("configuratorId", c));
            assertEquals("lock-released", event(reply), "unlock: " + reply);

            w.awaitEvent("lock-released");
            // The relay sends a change's lock-released before its lock-updated: once Sara (who watches
            // what she locked) has the empty lock-updated, a broadcast lock-released would be there too.
            s.awaitEvent(frame -> "lock-updated".equals(event(frame)) && frame.path("data").path("locks").isEmpty());
            List<JsonNode> released = s.events("lock-released");
            assertEquals(1, released.size(), "the unlocker gets lock-released once, as its reply: " + s.received());
            assertTrue(released.get(0).has("ref"), "and that one is the reply: " + released);
        }
    }

    @Test
    void otherSocketsOfTheHolderGetLockLostButNotTheUnlocker() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token()); WsClient tab2 = WsClient.connect(base, sara.token());
                WsClient tab3 = WsClient.connect(base, sara.token())) {
            tab1.request("lock-configurator", Map.of("configuratorId", c));

            // Any socket of the holder may unlock: here the one that did not lock it.
            JsonNode released = tab2.request("unlock-configurator", Map.of("configuratorId", c));
            assertEquals("lock-released", event(released), "any socket of the holder may unlock: " + released);

            for (WsClient other : List.of(tab1, tab3)) {
                JsonNode lost = other.awaitEvent("lock-lost");
                assertEquals("unlock", lost.path("data").path("reason").asText(), "lock-lost reason: " + lost);
                assertEquals("configurator", lost.path("data").path("resource").path("type").asText(), "lock-lost resource: " + lost);
                assertEquals(c, lost.path("data").path("resource").path("configuratorId").asLong(), "lock-lost resource: " + lost);
            }
            // The relay sends a change's lock-lost frames before its lock-updated to the watchers (tab1).
            awaitState(tab1, c, Set.of());
            assertTrue(tab2.events("lock-lost").isEmpty(), "the socket whose own unlock released it must not get lock-lost: "
                    + tab2.received());
        }
    }

    @Test
    void unwatchIsIdempotentAndStopsBroadcasts() {
        long c = Fixtures.configurator(store);
        long other = Fixtures.configurator(store);
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token()); WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            w.request("watch", Map.of("configuratorId", other));

            for (long id : new long[] {c, c, 9_007_199_254_740_991L}) {
                String ref = w.send("unwatch", Map.of("configuratorId", id));
                JsonNode reply = w.reply(ref);
                assertEquals("unwatched", event(reply), "unwatch of " + id + " (idempotent, also when unknown): " + reply);
                assertEquals(id, reply.path("data").path("configuratorId").asLong(), "unwatched names the configurator: " + reply);
                assertExactlyOneReply(w, ref);
            }
            int framesBefore = w.received().size();

            s.request("lock-configurator", Map.of("configuratorId", c));
            s.request("unlock-configurator", Map.of("configuratorId", c));
            s.request("lock-variables", Map.of("configuratorId", other));
            awaitState(w, other, Set.of("variables"));

            List<JsonNode> after = w.received().subList(framesBefore, w.received().size());
            assertTrue(after.stream().noneMatch(f -> mentions(f, c)), "after unwatch no broadcast of that configurator may arrive: " + after);
        }
    }

    @Test
    void lockLostStillReachesASocketThatUnwatched() {
        long c = Fixtures.configurator(store);
        long other = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token()); WsClient tab2 = WsClient.connect(base, sara.token())) {
            tab1.request("lock-configurator", Map.of("configuratorId", c));
            tab2.request("lock-configurator", Map.of("configuratorId", c)); // re-entry: tab2 keeps and watches it too
            assertEquals("unwatched", event(tab2.request("unwatch", Map.of("configuratorId", c))));
            tab2.request("watch", Map.of("configuratorId", other));
            int framesBefore = tab2.received().size();

            tab1.request("unlock-configurator", Map.of("configuratorId", c));
            tab1.request("lock-variables", Map.of("configuratorId", other)); // published after the unlock: a barrier

            JsonNode lost = tab2.awaitEvent("lock-lost");
            assertEquals("unlock", lost.path("data").path("reason").asText(), "lock-lost reaches every other socket of the holder: " + lost);
            awaitState(tab2, other, Set.of("variables"));
            List<JsonNode> after = tab2.received().subList(framesBefore, tab2.received().size());
            assertTrue(after.stream().filter(f -> mentions(f, c)).allMatch(isEvent("lock-lost")),
                    "after unwatch only lock-lost may arrive about that configurator: " + after);
        }
    }

    @Test
    void reentryFromAnotherSocketIsTheSameGrantAndBroadcastsNothing() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token()); WsClient tab2 = WsClient.connect(base, sara.token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            JsonNode first = tab1.request("lock-configurator", Map.of("configuratorId", c)).path("data").path("lock");
            awaitState(w, c, Set.of("configurator"));

            JsonNode again = tab2.request("lock-configurator", Map.of("configuratorId", c));
            assertEquals("lock-acquired", event(again), "re-locking your own lock from another socket succeeds: " + again);
            JsonNode second = again.path("data").path("lock");
            assertEquals(first.path("token").asLong(), second.path("token").asLong(), "a re-entry is the same grant: same token");
            assertEquals(first.path("acquiredAt").asText(), second.path("acquiredAt").asText(), "a re-entry keeps acquiredAt");

            // A later change: its broadcast comes after any broadcast the re-entry might have caused.
            tab1.request("lock-variables", Map.of("configuratorId", c));
            awaitState(w, c, Set.of("configurator", "variables"));
            List<JsonNode> updates = w.frames(isEvent("lock-updated").and(f -> !f.has("ref")));
            assertEquals(2, updates.size(), "a re-entry changes nothing watchers see: no lock-updated for it: " + updates);
        }
    }

    @Test
    void lockingASecondConfiguratorReleasesTheFirst() {
        long c1 = Fixtures.configurator(store);
        long c2 = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token()); WsClient tab2 = WsClient.connect(base, sara.token());
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
            assertEquals("replaced", lost.path("data").path("reason").asText(), "other sockets of the user: lock-lost replaced: " + lost);
            assertEquals(c1, lost.path("data").path("resource").path("configuratorId").asLong(), "lock-lost resource: " + lost);
            JsonNode gone = w.awaitEvent("lock-released");
            assertEquals("replaced", gone.path("data").path("reason").asText(), "watchers: lock-released replaced: " + gone);
            assertEquals("configurator", gone.path("data").path("resource").path("type").asText(), "lock-released resource: " + gone);
            JsonNode state = awaitState(w, c1, Set.of("variables"));
            assertEquals("variables", state.path("data").path("locks").get(0).path("resource").path("type").asText(),
                    "variables are not affected by the one-configurator rule: " + state);

            awaitState(tab1, c1, Set.of("variables")); // tab1 watches c1: its lock-lost would have come before this
            assertTrue(tab1.events("lock-lost").isEmpty(), "the socket whose lock-acquired listed the release must not get lock-lost: "
                    + tab1.received());
        }
    }

    @Test
    void refusedSecondConfiguratorKeepsTheFirst() {
        long c1 = Fixtures.configurator(store);
        long c2 = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token()); WsClient o = WsClient.connect(base, DemoLogin.user("Omar").token())) {
            s.request("lock-configurator", Map.of("configuratorId", c1));
            o.request("lock-configurator", Map.of("configuratorId", c2));

            JsonNode failed = s.request("lock-configurator", Map.of("configuratorId", c2));
            assertEquals("LOCKED", failed.path("data").path("code").asText(), "c2 is Omar's: " + failed);
            JsonNode state = o.request("watch", Map.of("configuratorId", c1));
            assertEquals(Set.of("configurator"), types(state.path("data").path("locks")), "a refused switch keeps c1: " + state);
            assertEquals(sara.id(), state.path("data").path("locks").get(0).path("ownerUserId").asText(), "still Sara's: " + state);
        }
    }

    // --- helpers ------------------------------------------------------------------------------

    /** Exactly one frame carries the ref. Replies keep the order of requests, so a later reply is a barrier. */
    private static void assertExactlyOneReply(WsClient client, String ref) {
        client.request("touch", Map.of());
        assertEquals(1, client.repliesTo(ref).size(), "request " + ref + " must get exactly one direct reply: " + client.received());
    }

    /** Waits for a lock-updated broadcast of this configurator with exactly these lock types. */
    private static JsonNode awaitState(WsClient client, long configuratorId, Set<String> lockTypes) {
        return client.awaitEvent(isEvent("lock-updated").and(f -> !f.has("ref"))
                .and(f -> f.path("data").path("configuratorId").asLong() == configuratorId)
                .and(f -> types(f.path("data").path("locks")).equals(lockTypes)));
    }

    private static void assertResource(JsonNode resource, Kind kind, long configurator, long item) {
        assertEquals(kind.type, resource.path("type").asText(), "resource.type: " + resource);
        assertEquals(configurator, resource.path("configuratorId").asLong(), "resource.configuratorId: " + resource);
        if (kind == Kind.ITEM_PAGE) {
            assertEquals(item, resource.path("itemId").asLong(), "resource.itemId: " + resource);
            assertEquals("filters", resource.path("page").asText(), "resource.page: " + resource);
        } else {
            assertFalse(resource.has("itemId") || resource.has("page"), "itemId/page only for item pages: " + resource);
        }
    }

    private static Set<String> types(JsonNode locks) {
        return StreamSupport.stream(locks.spliterator(), false).map(l -> l.path("resource").path("type").asText())
                .collect(Collectors.toSet());
    }

    private static boolean mentions(JsonNode frame, long configuratorId) {
        JsonNode data = frame.path("data");
        return data.path("configuratorId").asLong() == configuratorId
                || data.path("resource").path("configuratorId").asLong() == configuratorId;
    }

    private static Predicate<JsonNode> isEvent(String event) {
        return frame -> event.equals(frame.path("event").asText());
    }

    private static String event(JsonNode frame) {
        return frame.path("event").asText();
    }
}
