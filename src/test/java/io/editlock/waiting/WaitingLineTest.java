package io.editlock.waiting;

import static io.editlock.support.LockFrames.awaitState;
import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.LockService;
import io.editlock.redis.LockKeys;
import io.editlock.session.SessionLifecycle;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** docs/protocol.md §14 over the wire: joining a line, being served in order in the step that frees the page, leaving. */
@QuarkusTest
class WaitingLineTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    SessionLifecycle lifecycle;

    @Inject
    LockService lockService;

    @Inject
    LockKeys keys;

    @Inject
    ReactiveRedisDataSource redis;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    private WsClient connect(TestUser user) {
        return sockets.connect(base, user);
    }

    private static boolean queuedGrant(JsonNode frame) {
        return frame.path("event").asText().equals("lock-acquired")
                && frame.path("data").path("queued").asBoolean();
    }

    @Test
    void nothingInTheWayIsAGrantAtOnce() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient tom = connect(DemoLogin.user("Tom"));
        JsonNode reply = tom.request("wait-for", about(item));
        assertEquals("lock-acquired", reply.path("event").asText(), reply.toString());
        assertTrue(reply.path("data").path("lock").path("token").asLong() > 0);
        // Like a lock request, the grant makes the socket watch the configurator in time to hear it (§4).
        awaitState(tom, c, Set.of("item-subresource"));
    }

    /**
     * Tom waits for the page because Sara's configurator lock blocks it; nothing blocks Sara, so her
     * own wait-for is a grant at once, as her lock request would be, not a place behind Tom.
     */
    @Test
    void aLineOfOthersIsNoReasonToQueueWhomNothingBlocks() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(DemoLogin.user("Tom"));
        sara.request("lock-configurator", Map.of("configuratorId", c));
        assertEquals(
                "queued", tom.request("wait-for", about(item)).path("event").asText());

        JsonNode reply = sara.request("wait-for", about(item));

        assertEquals("lock-acquired", reply.path("event").asText(), reply.toString());
        assertEquals(
                item,
                reply.path("data").path("lock").path("resource").path("itemId").asLong());
    }

    /**
     * A page found free while someone waits in its line (here: the store lost its lock's record, and the
     * line stayed) goes to the line's head, not to whoever asks for it first.
     */
    @Test
    void aFreePageWithALineGoesToItsHeadNotToWhoeverAsksFirst() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(DemoLogin.user("Tom"));
        WsClient lea = connect(DemoLogin.user("Lea"));
        sara.request("lock-item-subresource", page(item));
        assertEquals(
                "queued", tom.request("wait-for", about(item)).path("event").asText());

        redis.execute(Command.HDEL, keys.locks(c), "i:" + item + ":filters")
                .await()
                .atMost(Duration.ofSeconds(5));
        JsonNode refused = lea.request("lock-item-subresource", page(item));

        assertEquals("lock-failed", refused.path("event").asText(), "Lea asked after Tom: " + refused);
        assertEquals("Tom", refused.path("data").path("lockedBy").asText(), refused.toString());
        tom.awaitEvent(WaitingLineTest::queuedGrant);
    }

    /**
     * A watcher sees a release that serves a line as any release: lock-released, then one lock-updated
     * that shows the new holder (never a lock-updated with the new holder before the old one's release).
     */
    @Test
    void watchersSeeTheReleaseBeforeTheNewHolder() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser tomUser = DemoLogin.user("Tom");
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(tomUser);
        WsClient watcher = connect(DemoLogin.user("Lea"));
        watcher.request("watch", Map.of("configuratorId", c));
        sara.request("lock-item-subresource", page(item));
        assertEquals(
                "queued", tom.request("wait-for", about(item)).path("event").asText());
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data").path("waiting").size() == 1);
        watcher.clear();

        sara.request("unlock-item-subresource", page(item));
        tom.awaitEvent(WaitingLineTest::queuedGrant);
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data")
                        .path("locks")
                        .path(0)
                        .path("ownerUserId")
                        .asText()
                        .equals(tomUser.id()));
        // Anything that was still on its way comes now.
        WsClient.stays(() -> watcher.received().size() == 2, Duration.ofMillis(500), "no further frame");
        List<String> seen = watcher.received().stream()
                .map(frame -> frame.path("event").asText())
                .toList();
        assertEquals(
                List.of("lock-released", "lock-updated"),
                seen,
                watcher.received().toString());
        assertTrue(
                watcher.received().get(1).path("data").path("waiting").isMissingNode(),
                "nobody waits any more: " + watcher.received());
    }

    @Test
    void waitersAreServedInOrderInTheStepThatFreesThePage() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        WsClient sara = connect(saraUser);
        WsClient tom = connect(tomUser);
        WsClient tomTab = connect(tomUser);
        WsClient omar = connect(DemoLogin.user("Omar"));
        WsClient watcher = connect(DemoLogin.user("Lea"));
        watcher.request("watch", Map.of("configuratorId", c));
        long saraToken = sara.request("lock-item-subresource", page(item))
                .path("data")
                .path("lock")
                .path("token")
                .asLong();

        JsonNode tomQueued = tom.request("wait-for", about(item));
        assertEquals("queued", tomQueued.path("event").asText(), tomQueued.toString());
        assertEquals(1, tomQueued.path("data").path("position").asInt());
        assertEquals(
                c,
                tomQueued.path("data").path("resource").path("configuratorId").asLong());
        JsonNode omarQueued = omar.request("wait-for", about(item));
        assertEquals(2, omarQueued.path("data").path("position").asInt());
        // Asking again keeps the place.
        assertEquals(
                1,
                tomTab.request("wait-for", about(item))
                        .path("data")
                        .path("position")
                        .asInt());
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data")
                                .path("waiting")
                                .path("item:" + item + ":filters")
                                .asInt()
                        == 2);
        // A new watcher sees the line at once.
        WsClient late = connect(DemoLogin.user("Ida"));
        assertEquals(
                2,
                late.request("watch", Map.of("configuratorId", c))
                        .path("data")
                        .path("waiting")
                        .path("item:" + item + ":filters")
                        .asInt());

        sara.request("unlock-item-subresource", page(item));
        JsonNode granted = tom.awaitEvent(WaitingLineTest::queuedGrant);
        assertFalse(granted.has("ref"));
        assertEquals(
                tomUser.id(),
                granted.path("data").path("lock").path("ownerUserId").asText());
        assertTrue(granted.path("data").path("lock").path("token").asLong() > saraToken, "a new grant, a new token");
        assertEquals(0, granted.path("data").path("released").size());
        tomTab.awaitEvent(WaitingLineTest::queuedGrant);
        assertEquals(
                1,
                omar.awaitEvent("queue-updated").path("data").path("position").asInt());
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data")
                                .path("waiting")
                                .path("item:" + item + ":filters")
                                .asInt()
                        == 1
                && frame.path("data").path("locks").size() == 1
                && frame.path("data")
                        .path("locks")
                        .get(0)
                        .path("ownerUserId")
                        .asText()
                        .equals(tomUser.id()));
        // Nobody slips in between: Sara asking again is refused, Tom holds it.
        JsonNode again = sara.request("lock-item-subresource", page(item));
        assertEquals("LOCKED", again.path("data").path("code").asText(), again.toString());
        assertEquals(tomUser.id(), again.path("data").path("lockedByUserId").asText());

        // Tom's sockets keep the lock; when he is done, Omar is next.
        tom.request("unlock-item-subresource", page(item));
        JsonNode omarGrant = omar.awaitEvent(WaitingLineTest::queuedGrant);
        assertTrue(omarGrant.path("data").path("lock").path("token").asLong()
                > granted.path("data").path("lock").path("token").asLong());
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && !frame.path("data").has("waiting")
                && frame.path("data").path("locks").size() == 1
                && frame.path("data")
                        .path("locks")
                        .get(0)
                        .path("ownerUserName")
                        .asText()
                        .equals("Omar"));
    }

    @Test
    void leavingMovesTheOthersUp() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(DemoLogin.user("Tom"));
        WsClient omar = connect(DemoLogin.user("Omar"));
        WsClient ida = connect(DemoLogin.user("Ida"));
        sara.request("lock-item-subresource", page(item));
        tom.request("wait-for", about(item));
        omar.request("wait-for", about(item));
        assertEquals(
                3,
                ida.request("wait-for", about(item))
                        .path("data")
                        .path("position")
                        .asInt());

        JsonNode left = tom.request("stop-waiting", about(item));
        assertEquals("not-waiting", left.path("event").asText());
        assertEquals(
                1,
                omar.awaitEvent("queue-updated").path("data").path("position").asInt());
        assertEquals(
                2, ida.awaitEvent("queue-updated").path("data").path("position").asInt());
        assertEquals(
                "not-waiting",
                tom.request("stop-waiting", about(item)).path("event").asText(),
                "also when not waiting");

        // A socket that closes leaves the line.
        omar.closeCleanly();
        ida.awaitEvent(frame -> frame.path("event").asText().equals("queue-updated")
                && frame.path("data").path("position").asInt() == 1);
        sara.request("unlock-item-subresource", page(item));
        ida.awaitEvent(WaitingLineTest::queuedGrant);
        assertTrue(tom.frames(WaitingLineTest::queuedGrant).isEmpty());
    }

    /**
     * A place is the user's, shared by every socket that asked (§14): when one of them stops waiting,
     * it has its reply, and the user's other sockets, which would still show the place, are told
     * ({@code not-waiting}, reason {@code stopped}, without {@code ref}). A socket of the user that
     * then asks again takes a new place, which a late word of the old one does not end.
     */
    @Test
    void whenOneSocketStopsWaitingTheUsersOthersAreTold() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = connect(DemoLogin.user("Sara"));
        TestUser tom = DemoLogin.user("Tom");
        WsClient tomHere = connect(tom);
        WsClient tomThere = connect(tom);
        sara.request("lock-item-subresource", page(item));
        tomHere.request("wait-for", about(item));
        tomThere.request("wait-for", about(item));

        JsonNode reply = tomHere.request("stop-waiting", about(item));
        assertEquals("not-waiting", reply.path("event").asText(), reply.toString());
        JsonNode told = tomThere.awaitEvent("not-waiting");
        assertEquals("stopped", told.path("data").path("reason").asText(), told.toString());
        assertEquals(item, told.path("data").path("resource").path("itemId").asLong(), told.toString());
        assertTrue(told.path("ref").isMissingNode(), "Tom asked nothing there: " + told);

        JsonNode again = tomThere.request("wait-for", about(item));
        assertEquals(1, again.path("data").path("position").asInt(), again.toString());
        sara.request("unlock-item-subresource", page(item));
        tomThere.awaitEvent(WaitingLineTest::queuedGrant);
        assertEquals(
                List.of(),
                tomHere.events("not-waiting").stream()
                        .filter(frame -> !frame.has("ref"))
                        .toList(),
                "the socket that asked has its reply, and nothing more");
        assertEquals(1, tomThere.events("not-waiting").size(), "told once: " + tomThere.received());
    }

    /**
     * A place is the user's; it ends when the last socket that asked goes away (docs/protocol.md §14).
     * The user's other sockets, which may show it, are told why.
     */
    @Test
    void whenTheSocketThatAskedClosesTheUsersOthersAreTold() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = connect(DemoLogin.user("Sara"));
        TestUser tom = DemoLogin.user("Tom");
        WsClient tomHere = connect(tom);
        WsClient tomThere = connect(tom);
        sara.request("lock-item-subresource", page(item));
        JsonNode queued = tomHere.request("wait-for", about(item));
        assertEquals("queued", queued.path("event").asText(), queued.toString());

        tomHere.closeCleanly();
        JsonNode told = tomThere.awaitEvent("not-waiting");
        assertEquals("disconnect", told.path("data").path("reason").asText(), told.toString());
        assertEquals(item, told.path("data").path("resource").path("itemId").asLong(), told.toString());
        assertTrue(told.path("ref").isMissingNode(), "Tom asked nothing there: " + told);

        JsonNode again = tomThere.request("wait-for", about(item));
        assertEquals(1, again.path("data").path("position").asInt(), "the line was Tom's alone: " + again);
    }

    /**
     * The grant to the head of a line and the line's new length come from one step, but the lock and
     * waiting events travel apart: no {@code lock-updated} may pair the new holder with the length
     * from before (the head counted as still waiting).
     */
    @Test
    void aLockUpdatedNeverShowsTheHeadBothHoldingAndWaiting() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        long other = Fixtures.item(store, c);
        String canonical = "item:" + item + ":filters";
        TestUser tomUser = DemoLogin.user("Tom");
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(tomUser);
        WsClient omar = connect(DemoLogin.user("Omar"));
        WsClient watcher = connect(DemoLogin.user("Lea"));
        watcher.request("watch", Map.of("configuratorId", c));
        sara.request("lock-item-subresource", page(item));
        sara.request("lock-item-subresource", page(other));
        tom.request("wait-for", about(item));
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data").path("waiting").path(canonical).asInt() == 1);

        sara.request("unlock-item-subresource", page(item));
        tom.awaitEvent(WaitingLineTest::queuedGrant);
        // A later change of another line, heard after the grant's own events on both channels.
        omar.request("wait-for", about(other));
        JsonNode omarInLine =
                watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                        && frame.path("data").path("waiting").has("item:" + other + ":filters"));

        List<JsonNode> contradictory = new ArrayList<>();
        for (JsonNode frame : watcher.events("lock-updated")) {
            if (frame == omarInLine) {
                break;
            }
            if (heldBy(frame, tomUser.id())
                    && frame.path("data").path("waiting").has(canonical)) {
                contradictory.add(frame);
            }
        }
        assertTrue(contradictory.isEmpty(), "Tom both holds the page and waits for it in " + contradictory);
    }

    private static boolean heldBy(JsonNode lockUpdated, String userId) {
        for (JsonNode lock : lockUpdated.path("data").path("locks")) {
            if (lock.path("ownerUserId").asText().equals(userId)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aResumeKeepsThePlaceInLine() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser tomUser = DemoLogin.user("Tom");
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient omar = connect(DemoLogin.user("Omar"));
        WsClient tomBefore = connect(tomUser);
        sara.request("lock-item-subresource", page(item));
        assertEquals(
                1,
                tomBefore
                        .request("wait-for", about(item))
                        .path("data")
                        .path("position")
                        .asInt());
        assertEquals(
                2,
                omar.request("wait-for", about(item))
                        .path("data")
                        .path("position")
                        .asInt());
        String resumeToken = tomBefore.resumeToken();
        String oldSocket = tomBefore.socketId();
        tomBefore.drop();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lifecycle.droppedSessions().stream()
                        .anyMatch(session -> session.socketId().equals(oldSocket)));
        WsClient tomAfter = connect(tomUser);
        assertEquals(
                "resumed",
                tomAfter.request("resume", Map.of("resumeToken", resumeToken))
                        .path("event")
                        .asText());
        // Past the old socket's grace period Tom is still first: his place moved to the new socket.
        WsClient.stays(() -> omar.events("queue-updated").isEmpty(), Duration.ofSeconds(11), "nobody moved up");
        sara.request("unlock-item-subresource", page(item));
        JsonNode granted = tomAfter.awaitEvent(WaitingLineTest::queuedGrant);
        assertEquals(
                tomUser.id(),
                granted.path("data").path("lock").path("ownerUserId").asText());
        // The new socket keeps the lock (the old one is gone for good).
        var held = lockService.locks(c).await().atMost(Duration.ofSeconds(5));
        assertEquals(Set.of(tomAfter.socketId()), held.get(0).keepers().keySet());
        assertEquals(
                "lock-released",
                tomAfter.request("unlock-item-subresource", page(item))
                        .path("event")
                        .asText());
        omar.awaitEvent(WaitingLineTest::queuedGrant);
    }

    @Test
    void conflictsStillApplyToTheHead() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser tomUser = DemoLogin.user("Tom");
        TestUser omarUser = DemoLogin.user("Omar");
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(tomUser);
        WsClient omar = connect(omarUser);
        WsClient watcher = connect(DemoLogin.user("Lea"));
        watcher.request("watch", Map.of("configuratorId", c));
        sara.request("lock-item-subresource", page(item));
        assertEquals(
                "queued", tom.request("wait-for", about(item)).path("event").asText());
        JsonNode omarQueued =
                omar.request("wait-for", Map.of("resource", Map.of("type", "configurator", "configuratorId", c)));
        assertEquals("queued", omarQueued.path("event").asText(), omarQueued.toString());

        sara.request("unlock-item-subresource", page(item));
        // Both heads are served in the same step, but the configurator and its page conflict: one only.
        JsonNode state =
                watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                        && frame.path("data").path("locks").size() == 1
                        && !frame.path("data")
                                .path("locks")
                                .get(0)
                                .path("ownerUserName")
                                .asText()
                                .equals("Sara"));
        String holder =
                state.path("data").path("locks").get(0).path("ownerUserId").asText();
        WsClient served = holder.equals(tomUser.id()) ? tom : omar;
        WsClient blocked = holder.equals(tomUser.id()) ? omar : tom;
        served.awaitEvent(WaitingLineTest::queuedGrant);
        // The other one is served when the conflict ends.
        served.request(
                holder.equals(tomUser.id()) ? "unlock-item-subresource" : "unlock-configurator",
                holder.equals(tomUser.id()) ? page(item) : Map.of("configuratorId", c));
        blocked.awaitEvent(WaitingLineTest::queuedGrant);
        assertEquals(1, served.frames(WaitingLineTest::queuedGrant).size());
    }

    @Test
    void aConfiguratorFromTheLineReplacesTheUsersOtherConfigurator() {
        long first = Fixtures.configurator(store);
        long second = Fixtures.configurator(store);
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(DemoLogin.user("Tom"));
        tom.request("lock-configurator", Map.of("configuratorId", first));
        sara.request("lock-configurator", Map.of("configuratorId", second));
        assertEquals(
                "queued",
                tom.request("wait-for", Map.of("resource", Map.of("type", "configurator", "configuratorId", second)))
                        .path("event")
                        .asText());
        sara.request("unlock-configurator", Map.of("configuratorId", second));
        tom.awaitEvent(WaitingLineTest::queuedGrant);
        JsonNode lost = tom.awaitEvent("lock-lost");
        assertEquals("replaced", lost.path("data").path("reason").asText());
        assertEquals(
                first, lost.path("data").path("resource").path("configuratorId").asLong());
        // The first configurator is free for others.
        assertEquals(
                "lock-acquired",
                sara.request("lock-configurator", Map.of("configuratorId", first))
                        .path("event")
                        .asText());
    }

    /** Requests at once from two tabs: the count and the check are one step, so exactly twenty get in. */
    @Test
    void twentyLinesAlsoForRequestsAtOnce() {
        long c = Fixtures.configurator(store);
        List<Long> items = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            items.add(Fixtures.item(store, c));
        }
        WsClient sara = connect(DemoLogin.user("Sara"));
        TestUser tomUser = DemoLogin.user("Tom");
        List<WsClient> tabs = List.of(connect(tomUser), connect(tomUser));
        sara.request("lock-configurator", Map.of("configuratorId", c));
        List<Map.Entry<WsClient, String>> sent = new ArrayList<>();
        for (long item : items) {
            for (String p : List.of("filters", "dependencies", "attributes")) {
                WsClient tab = tabs.get(sent.size() % 2);
                sent.add(Map.entry(
                        tab,
                        tab.send(
                                "wait-for",
                                Map.of("resource", Map.of("type", "item-subresource", "itemId", item, "page", p)))));
            }
        }
        List<JsonNode> replies =
                sent.stream().map(s -> s.getKey().reply(s.getValue())).toList();
        assertEquals(
                20,
                replies.stream()
                        .filter(r -> r.path("event").asText().equals("queued"))
                        .count(),
                "replies: " + replies);
        assertEquals(
                7,
                replies.stream()
                        .filter(r -> r.path("data").path("code").asText().equals("LIMIT_EXCEEDED"))
                        .count(),
                "replies: " + replies);
    }

    @Test
    void atMostTwentyLinesPerUser() {
        long c = Fixtures.configurator(store);
        List<Long> items = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            items.add(Fixtures.item(store, c));
        }
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(DemoLogin.user("Tom"));
        sara.request("lock-configurator", Map.of("configuratorId", c));
        int queued = 0;
        JsonNode last = null;
        for (long item : items) {
            for (String p : List.of("filters", "dependencies", "attributes")) {
                last = tom.request(
                        "wait-for", Map.of("resource", Map.of("type", "item-subresource", "itemId", item, "page", p)));
                if (last.path("event").asText().equals("queued")) {
                    queued++;
                }
            }
        }
        assertEquals(20, queued);
        assertEquals("error", last.path("event").asText());
        assertEquals("LIMIT_EXCEEDED", last.path("data").path("code").asText());
        // Leaving one line makes room for another.
        tom.request(
                "stop-waiting",
                Map.of("resource", Map.of("type", "item-subresource", "itemId", items.get(0), "page", "filters")));
        assertEquals(
                "queued",
                tom.request(
                                "wait-for",
                                Map.of(
                                        "resource",
                                        Map.of(
                                                "type",
                                                "item-subresource",
                                                "itemId",
                                                items.get(6),
                                                "page",
                                                "attributes")))
                        .path("event")
                        .asText());
    }

    /** A line the user was served from no longer counts, also right after it was joined. */
    @Test
    void aLineServedIsNoLongerCounted() {
        long first = Fixtures.configurator(store);
        long firstItem = Fixtures.item(store, first);
        long c = Fixtures.configurator(store);
        List<Long> items = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            items.add(Fixtures.item(store, c));
        }
        WsClient omar = connect(DemoLogin.user("Omar"));
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(DemoLogin.user("Tom"));
        omar.request("lock-item-subresource", Map.of("itemId", firstItem, "page", "filters"));
        assertEquals(
                "queued",
                tom.request("wait-for", about(firstItem)).path("event").asText());
        omar.request("unlock-item-subresource", Map.of("itemId", firstItem, "page", "filters"));
        tom.awaitEvent(WaitingLineTest::queuedGrant);
        sara.request("lock-configurator", Map.of("configuratorId", c));

        int queued = 0;
        for (long item : items) {
            for (String p : List.of("filters", "dependencies", "attributes")) {
                JsonNode reply = tom.request(
                        "wait-for", Map.of("resource", Map.of("type", "item-subresource", "itemId", item, "page", p)));
                if (reply.path("event").asText().equals("queued")) {
                    queued++;
                }
            }
        }
        assertEquals(20, queued, "the line Tom was served from is not one of his 20");
    }

    /** The limit is on lines: what the user could lock at once is still granted, and only a new line is refused. */
    @Test
    void atTheLimitAFreePageIsStillGrantedAndOnlyANewLineRefused() {
        long c = Fixtures.configurator(store);
        List<Long> items = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            items.add(Fixtures.item(store, c));
        }
        long other = Fixtures.configurator(store);
        long free = Fixtures.item(store, other);
        long held = Fixtures.item(store, other);
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(DemoLogin.user("Tom"));
        sara.request("lock-configurator", Map.of("configuratorId", c));
        sara.request("lock-item-subresource", page(held));
        int queued = 0;
        for (long item : items) {
            for (String p : List.of("filters", "dependencies", "attributes")) {
                if (queued < 20
                        && tom.request(
                                        "wait-for",
                                        Map.of(
                                                "resource",
                                                Map.of("type", "item-subresource", "itemId", item, "page", p)))
                                .path("event")
                                .asText()
                                .equals("queued")) {
                    queued++;
                }
            }
        }
        assertEquals(20, queued, "Tom waits in as many lines as allowed");

        JsonNode granted = tom.request("wait-for", about(free));
        assertEquals("lock-acquired", granted.path("event").asText(), "nothing blocks Tom: " + granted);
        JsonNode again = tom.request("wait-for", about(free));
        assertEquals("lock-acquired", again.path("event").asText(), "Tom holds it already: " + again);
        JsonNode refused = tom.request("wait-for", about(held));
        assertEquals("error", refused.path("event").asText(), refused.toString());
        assertEquals("LIMIT_EXCEEDED", refused.path("data").path("code").asText(), refused.toString());
        JsonNode state = connect(DemoLogin.user("Lea")).request("watch", Map.of("configuratorId", other));
        assertFalse(
                state.path("data").has("waiting"),
                "a wait-for refused for the limit must leave nobody in a 21st line: " + state);
    }

    @Test
    void unknownItemsAndBadFrames() {
        WsClient tom = connect(DemoLogin.user("Tom"));
        JsonNode unknown = tom.request("wait-for", about(Long.MAX_VALUE >> 11));
        assertEquals("lock-failed", unknown.path("event").asText());
        assertEquals("NOT_FOUND", unknown.path("data").path("code").asText());
        JsonNode bad = tom.request("wait-for", Map.of("resource", Map.of("type", "page")));
        assertEquals("BAD_REQUEST", bad.path("data").path("code").asText());
    }
}
