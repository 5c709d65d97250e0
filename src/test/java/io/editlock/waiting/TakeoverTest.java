package io.editlock.waiting;

import static io.editlock.support.Api.as;
import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.filters;
import static io.editlock.support.Sockets.page;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.LockKeys;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §13 over the wire: asking the holder, who accepts, refuses or does not answer;
 * the hand-over is one step with a new fencing token, and every party hears of it.
 */
@QuarkusTest
@TestProfile(TakeoverTest.ShortConsent.class)
class TakeoverTest {

    static final Duration CONSENT = Duration.ofSeconds(3);

    public static class ShortConsent implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "editlock.waiting.consent-window",
                    CONSENT.toSeconds() + "s",
                    "editlock.waiting.sweep-interval",
                    "500ms");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    private WsClient connect(TestUser user) {
        return sockets.connect(base, user);
    }

    private static Map<String, Object> ask(long item, String message) {
        return message == null ? about(item) : Map.of("resource", filters(item), "message", message);
    }

    private static Map<String, Object> answer(long item, boolean accept) {
        return Map.of("resource", filters(item), "accept", accept);
    }

    @Test
    void anAcceptedTakeOverHandsTheLockOverWithANewToken() {
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient saraTab = connect(saraUser);
        WsClient tom = connect(tomUser);
        WsClient watcher = connect(DemoLogin.user("Lea"));
        watcher.request("watch", Map.of("configuratorId", c));
        long saraToken = sara.request("lock-item-subresource", page(item))
                .path("data")
                .path("lock")
                .path("token")
                .asLong();

        JsonNode pending = tom.request("request-takeover", ask(item, "Need to fix a typo"));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
        Instant deadline = Instant.parse(pending.path("data").path("deadline").asText());
        assertTrue(deadline.isAfter(Instant.now().plus(CONSENT).minusSeconds(2)), "deadline " + deadline);
        for (WsClient socket : List.of(sara, saraTab)) {
            JsonNode asked = socket.awaitEvent("takeover-requested").path("data");
            assertEquals(tomUser.id(), asked.path("byUserId").asText());
            assertEquals("Tom", asked.path("byUserName").asText());
            assertEquals("Need to fix a typo", asked.path("message").asText());
            assertEquals(deadline.toString(), asked.path("deadline").asText());
            assertEquals(item, asked.path("resource").path("itemId").asLong());
        }

        JsonNode answered = saraTab.request("answer-takeover", answer(item, true));
        assertEquals("takeover-answered", answered.path("event").asText(), answered.toString());
        assertTrue(answered.path("data").path("accept").asBoolean());
        JsonNode granted = tom.awaitEvent("takeover-granted").path("data").path("lock");
        assertEquals(tomUser.id(), granted.path("ownerUserId").asText());
        long tomToken = granted.path("token").asLong();
        assertTrue(tomToken > saraToken);
        for (WsClient socket : List.of(sara, saraTab)) {
            assertEquals(
                    "taken-over",
                    socket.awaitEvent("lock-lost").path("data").path("reason").asText());
        }
        assertEquals(
                "taken-over",
                watcher.awaitEvent("lock-released").path("data").path("reason").asText());
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data").path("locks").size() == 1
                && frame.path("data")
                        .path("locks")
                        .get(0)
                        .path("ownerUserId")
                        .asText()
                        .equals(tomUser.id()));

        // Sara's old token is dead; Tom's works.
        as(saraUser)
                .header("Lock-Token", saraToken)
                .body(Map.of("expression", "a"))
                .post("/api/items/" + item + "/filters")
                .then()
                .statusCode(423);
        as(tomUser)
                .header("Lock-Token", tomToken)
                .body(Map.of("expression", "a"))
                .post("/api/items/" + item + "/filters")
                .then()
                .statusCode(201);
        // The asking socket keeps the lock: Tom can unlock it.
        assertEquals(
                "lock-released",
                tom.request("unlock-item-subresource", page(item)).path("event").asText());
    }

    @Test
    void aRefusalChangesNothing() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient tom = connect(DemoLogin.user("Tom"));
        long saraToken = sara.request("lock-item-subresource", page(item))
                .path("data")
                .path("lock")
                .path("token")
                .asLong();
        tom.request("request-takeover", ask(item, null));
        JsonNode requested = sara.awaitEvent("takeover-requested").path("data");
        assertTrue(requested.path("message").isTextual(), "message is always there: " + requested);
        assertEquals("", requested.path("message").asText(), "Tom gave none: " + requested);
        assertEquals(
                "takeover-answered",
                sara.request("answer-takeover", answer(item, false))
                        .path("event")
                        .asText());
        JsonNode refused = tom.awaitEvent("takeover-refused").path("data");
        assertEquals("Sara", refused.path("byUserName").asText());
        // Past the deadline nothing happens either: both stay quiet the whole time.
        await().during(CONSENT.plusSeconds(2))
                .atMost(CONSENT.plusSeconds(5))
                .until(() -> tom.events("takeover-granted").isEmpty()
                        && sara.events("lock-lost").isEmpty());
        as(saraUser)
                .header("Lock-Token", saraToken)
                .body(Map.of("expression", "a"))
                .post("/api/items/" + item + "/filters")
                .then()
                .statusCode(201);
        // A second answer has nothing to answer.
        assertEquals(
                "NOT_FOUND",
                sara.request("answer-takeover", answer(item, true))
                        .path("data")
                        .path("code")
                        .asText());
    }

    @Test
    void noAnswerWithinTheConsentWindowCountsAsYes() {
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient tom = connect(tomUser);
        sara.request("lock-item-subresource", page(item));
        Instant asked = Instant.now();
        Instant deadline = Instant.parse(tom.request("request-takeover", ask(item, "lunch?"))
                .path("data")
                .path("deadline")
                .asText());
        Instant answered = Instant.now();
        // Redis's clock sets the deadline, the test's reads the moments around it: one machine, one clock.
        assertTrue(
                !deadline.isBefore(asked.plus(CONSENT).minusMillis(500))
                        && !deadline.isAfter(answered.plus(CONSENT).plusMillis(500)),
                "the deadline is the consent window after the request: asked " + asked + ", deadline " + deadline);
        JsonNode granted = tom.awaitEvent(
                frame -> frame.path("event").asText().equals("takeover-granted"), CONSENT.plusSeconds(10));
        Instant at = Instant.now();
        assertTrue(!at.isBefore(deadline.minusMillis(200)), "not before the deadline: " + at + " vs " + deadline);
        assertTrue(
                at.isBefore(deadline.plusSeconds(3)),
                "within the sweep interval after the deadline: " + at + " vs " + deadline);
        assertEquals(
                tomUser.id(),
                granted.path("data").path("lock").path("ownerUserId").asText());
        assertEquals(
                "taken-over",
                sara.awaitEvent("lock-lost").path("data").path("reason").asText());
        assertEquals(
                "NOT_FOUND",
                sara.request("answer-takeover", answer(item, false))
                        .path("data")
                        .path("code")
                        .asText());
    }

    /**
     * Two users ask for the same page at the same moment, on the same node: one request is made, the other
     * is BUSY. The one made is handed the page at its deadline, also when the two asked in the same
     * millisecond (the BUSY one's clean-up once took the made one's place in the sweep's schedule, and
     * the page stayed with its silent holder). Pages enough at once that some pairs share a millisecond.
     */
    @Test
    void ofTwoAskingAtOnceTheRequestMadeIsHandedThePageAtItsDeadline() throws Exception {
        int pages = 12;
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        WsClient sara = connect(saraUser);
        List<Long> items = new ArrayList<>();
        List<List<WsClient>> askers = new ArrayList<>();
        for (int i = 0; i < pages; i++) {
            long item = Api.item(saraUser, c, null);
            sara.request("lock-item-subresource", page(item));
            items.add(item);
            askers.add(List.of(connect(DemoLogin.user("Tom " + i)), connect(DemoLogin.user("Omar " + i))));
        }
        ExecutorService threads = Executors.newFixedThreadPool(2 * pages);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<List<Future<JsonNode>>> replies = new ArrayList<>();
            for (int i = 0; i < pages; i++) {
                long item = items.get(i);
                List<Future<JsonNode>> pair = new ArrayList<>();
                for (WsClient asker : askers.get(i)) {
                    pair.add(threads.submit(() -> {
                        start.await();
                        return asker.request("request-takeover", about(item));
                    }));
                }
                replies.add(pair);
            }
            start.countDown();
            for (int i = 0; i < pages; i++) {
                List<String> events = new ArrayList<>();
                WsClient made = null;
                for (int a = 0; a < 2; a++) {
                    JsonNode reply = replies.get(i).get(a).get(15, TimeUnit.SECONDS);
                    events.add(reply.path("event").asText() + " "
                            + reply.path("data").path("code").asText());
                    if (reply.path("event").asText().equals("takeover-pending")) {
                        made = askers.get(i).get(a);
                    }
                }
                assertTrue(made != null && events.contains("lock-failed BUSY"), "one made, one BUSY: " + events);
                JsonNode granted = made.awaitEvent(
                        frame -> frame.path("event").asText().equals("takeover-granted"), CONSENT.plusSeconds(10));
                assertEquals(
                        items.get(i),
                        granted.path("data")
                                .path("lock")
                                .path("resource")
                                .path("itemId")
                                .asLong(),
                        "page " + i);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aReleaseMeanwhileHandsItOverInTheSameStep() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient tom = connect(DemoLogin.user("Tom"));
        WsClient omar = connect(DemoLogin.user("Omar"));
        sara.request("lock-item-subresource", page(item));
        tom.request("request-takeover", ask(item, null));
        assertEquals(
                "queued", omar.request("wait-for", about(item)).path("event").asText());
        sara.request("unlock-item-subresource", page(item));
        tom.awaitEvent("takeover-granted");
        // The take-over comes before the line; the line keeps its order for the next time.
        tom.request("unlock-item-subresource", page(item));
        omar.awaitEvent(frame -> frame.path("event").asText().equals("lock-acquired")
                && frame.path("data").path("queued").asBoolean());
    }

    /**
     * The holder lets go of what was asked for while another lock of theirs still refuses it to the
     * asker: the hand-over is due and cannot happen, so the request ends there with that lock named,
     * and the page goes to its line once that lock goes too, not to the asker ahead of the line.
     */
    @Test
    void aReleaseMeanwhileThatAnotherLockStillBlocksEndsTheRequestWithThatLock() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        Map<String, Object> structure = Map.of("type", "configurator", "configuratorId", c);
        WsClient sara = connect(saraUser);
        WsClient tom = connect(DemoLogin.user("Tom"));
        WsClient omar = connect(DemoLogin.user("Omar"));
        sara.request("lock-configurator", Map.of("configuratorId", c));
        assertEquals(
                "takeover-pending",
                tom.request("request-takeover", Map.of("resource", structure))
                        .path("event")
                        .asText());
        assertEquals(
                "queued",
                omar.request("wait-for", Map.of("resource", structure))
                        .path("event")
                        .asText());
        assertEquals(
                "lock-acquired",
                sara.request("lock-item-subresource", page(item)).path("event").asText());

        sara.request("unlock-configurator", Map.of("configuratorId", c));
        sara.request("unlock-item-subresource", page(item));

        JsonNode failed = tom.awaitEvent("lock-failed").path("data");
        assertEquals("LOCKED", failed.path("code").asText(), failed.toString());
        assertEquals("configurator", failed.path("resource").path("type").asText(), failed.toString());
        assertEquals(
                item,
                failed.path("blocking").path("resource").path("itemId").asLong(),
                "names Sara's page, which was in Tom's way: " + failed);
        JsonNode served = omar.awaitEvent(frame -> frame.path("event").asText().equals("lock-acquired")
                        && frame.path("data").path("queued").asBoolean())
                .path("data")
                .path("lock");
        assertEquals("configurator", served.path("resource").path("type").asText(), served.toString());
        assertTrue(tom.events("takeover-granted").isEmpty(), "the line's head comes first: " + tom.received());
        assertEquals(
                "NOT_FOUND",
                sara.request("answer-takeover", Map.of("resource", structure, "accept", true))
                        .path("data")
                        .path("code")
                        .asText(),
                "the request has ended");
    }

    @Test
    void refusalsOfTheRequest() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        long other = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient tom = connect(DemoLogin.user("Tom"));
        WsClient omar = connect(DemoLogin.user("Omar"));
        assertEquals(
                "NOT_HELD",
                tom.request("request-takeover", ask(item, null))
                        .path("data")
                        .path("code")
                        .asText());
        sara.request("lock-item-subresource", page(item));
        assertEquals(
                "NOT_HELD",
                sara.request("request-takeover", ask(item, null))
                        .path("data")
                        .path("code")
                        .asText(),
                "her own");
        assertEquals(
                "takeover-pending",
                tom.request("request-takeover", ask(item, null)).path("event").asText());
        assertEquals(
                "takeover-pending",
                tom.request("request-takeover", ask(item, null)).path("event").asText(),
                "asking again");
        assertEquals(
                "BUSY",
                omar.request("request-takeover", ask(item, null))
                        .path("data")
                        .path("code")
                        .asText());
        assertEquals(
                "NOT_FOUND",
                tom.request("request-takeover", ask(Long.MAX_VALUE >> 11, null))
                        .path("data")
                        .path("code")
                        .asText());
        // Sara also holds the configurator: taking the page alone would not let Omar edit it.
        sara.request("lock-item-subresource", page(other));
        sara.request("lock-configurator", Map.of("configuratorId", c));
        JsonNode locked = omar.request("request-takeover", ask(other, null));
        assertEquals("LOCKED", locked.path("data").path("code").asText(), locked.toString());
        assertEquals(
                "configurator",
                locked.path("data")
                        .path("blocking")
                        .path("resource")
                        .path("type")
                        .asText());
        assertEquals(
                "BAD_REQUEST",
                tom.request("request-takeover", Map.of("resource", filters(item), "message", "x".repeat(201)))
                        .path("data")
                        .path("code")
                        .asText());
    }

    @Test
    void aFreePageThatAnotherLockBlocksNamesThatLockToAskForInstead() {
        TestUser tomUser = DemoLogin.user("Tom");
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(tomUser);
        long item = Api.item(tomUser, c, null);
        long other = Api.item(tomUser, c, null);
        Map<String, Object> structure = Map.of("type", "configurator", "configuratorId", c);
        WsClient tom = connect(tomUser);
        WsClient sara = connect(saraUser);

        // Nothing blocks Sara: the page is hers to lock, not to ask for.
        tom.request("lock-item-subresource", page(other));
        JsonNode free = sara.request("request-takeover", ask(item, null));
        assertEquals("NOT_HELD", free.path("data").path("code").asText(), free.toString());

        // Tom's configurator lock refuses the page to Sara although nobody holds the page itself.
        tom.request("unlock-item-subresource", page(other));
        tom.request("lock-configurator", Map.of("configuratorId", c));
        JsonNode refusal = sara.request("lock-item-subresource", page(item)).path("data");
        JsonNode locked = sara.request("request-takeover", ask(item, null));
        assertEquals("lock-failed", locked.path("event").asText(), locked.toString());
        JsonNode data = locked.path("data");
        assertEquals("LOCKED", data.path("code").asText(), "the configurator lock still blocks Sara: " + locked);
        assertEquals(item, data.path("resource").path("itemId").asLong(), "names what was asked for: " + locked);
        assertEquals("Tom", data.path("lockedBy").asText());
        assertEquals(tomUser.id(), data.path("lockedByUserId").asText());
        assertEquals("Currently edited by Tom", data.path("message").asText());
        for (String field : List.of("resource", "ownerUserId", "ownerUserName", "acquiredAt")) {
            assertEquals(
                    refusal.path("blocking").path(field),
                    data.path("blocking").path(field),
                    field + " of the lock in the way, as the refused lock request named it: " + locked);
        }

        // That lock is the one to ask for; once it is Sara's, so is the page.
        JsonNode pending = sara.request("request-takeover", Map.of("resource", structure));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
        JsonNode asked = tom.awaitEvent("takeover-requested").path("data");
        assertEquals("configurator", asked.path("resource").path("type").asText(), asked.toString());
        tom.request("answer-takeover", Map.of("resource", structure, "accept", true));
        JsonNode granted = sara.awaitEvent("takeover-granted").path("data").path("lock");
        assertEquals("configurator", granted.path("resource").path("type").asText(), granted.toString());
        assertEquals(saraUser.id(), granted.path("ownerUserId").asText());
        assertEquals(
                "taken-over",
                tom.awaitEvent("lock-lost").path("data").path("reason").asText());
        JsonNode acquired = sara.request("lock-item-subresource", page(item));
        assertEquals("lock-acquired", acquired.path("event").asText(), acquired.toString());
    }

    @Test
    void theRequestEndsWithTheAskersLastSocket() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient tom = connect(DemoLogin.user("Tom"));
        sara.request("lock-item-subresource", page(item));
        tom.request("request-takeover", ask(item, null));
        sara.awaitEvent("takeover-requested");
        String takeovers = keys.waiting(c).get(3);
        assertEquals(
                1L,
                redis.execute(Command.HLEN, takeovers)
                        .await()
                        .atMost(Duration.ofSeconds(5))
                        .toLong());
        tom.closeCleanly();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> redis.execute(Command.HLEN, takeovers)
                                .await()
                                .atMost(Duration.ofSeconds(5))
                                .toLong()
                        == 0);
        assertEquals(
                "NOT_FOUND",
                sara.request("answer-takeover", answer(item, true))
                        .path("data")
                        .path("code")
                        .asText());
        assertTrue(sara.events("lock-lost").isEmpty(), sara.received().toString());
        assertEquals(
                "lock-released",
                sara.request("unlock-item-subresource", page(item))
                        .path("event")
                        .asText(),
                "still hers");
    }
}
