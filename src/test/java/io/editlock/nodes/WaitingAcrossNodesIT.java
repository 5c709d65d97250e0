package io.editlock.nodes;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.CloseAll;
import io.editlock.support.RedisAdmin;
import io.editlock.support.ServerNode;
import io.editlock.support.ShippedRedisAcl;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import io.editlock.support.WsClient;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * docs/protocol.md §13 and §14 on two server processes sharing one Redis: 50 users ask for and wait on one
 * page while its holder releases and locks it again. Never two holders, every waiter served in the
 * order of the line, every take-over request ended by its deadline (+ the sweep interval), and a
 * request whose node died is still decided, once. Redis runs the production ACL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WaitingAcrossNodesIT {

    static final Duration CONSENT = Duration.ofSeconds(2);
    static final Duration LEASE = Duration.ofSeconds(3);
    static final Duration SWEEP = Duration.ofMillis(250);
    static final int WAITERS = 40;
    static final int ASKERS = 10;

    ShippedRedisAcl acl;
    RedisProcess redis;
    TestTokens tokens;
    ServerNode nodeA;
    ServerNode nodeB;

    @BeforeAll
    void start() {
        // With the production ACL (deploy/redis-users.acl): every command the lines and take-overs run must be
        // allowed. Its default user is on here, for the faults the test causes (CLIENT KILL).
        acl = ShippedRedisAcl.withAdminDefaultUser();
        redis = new RedisProcess(TestRedis.binary(), RedisProcess.freePort(), acl.serverArguments()).start();
        tokens = TestTokens.generate();
        nodeA = ServerNode.start("wait-a", settings());
        nodeB = ServerNode.start("wait-b", settings());
    }

    @AfterAll
    void stop() {
        CloseAll.close(nodeA, nodeB, redis);
    }

    Map<String, String> settings() {
        Map<String, String> settings = new HashMap<>();
        settings.put("quarkus.redis.hosts", acl.url(redis.port()));
        settings.put("mp.jwt.verify.publickey.location", tokens.publicKeyFile().toString());
        settings.put("editlock.lease.ttl", LEASE.toMillis() + "ms");
        settings.put("editlock.lease.renew-interval", "1s");
        settings.put("editlock.lease.reaper-interval", "250ms");
        settings.put("editlock.session.sweep-interval", "250ms");
        settings.put("editlock.session.grace-period", "1s");
        settings.put("editlock.waiting.consent-window", CONSENT.toMillis() + "ms");
        settings.put("editlock.waiting.sweep-interval", SWEEP.toMillis() + "ms");
        settings.put("editlock.rate-limit.lock-requests-per-second", "1000");
        return settings;
    }

    private long[] configuratorWithItem(ServerNode node) {
        String token = tokens.token("setup", "Setup");
        long c = node.createConfigurator(token, "waiting");
        long item = given().baseUri(node.baseUri().toString())
                .header("Authorization", "Bearer " + token)
                .contentType("application/json")
                .body(Map.of("name", "page"))
                .when()
                .post("/api/configurators/" + c + "/items")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getLong("id");
        return new long[] {c, item};
    }

    private static Map<String, Object> page(long item) {
        return Map.of("itemId", item, "page", "filters");
    }

    private static Map<String, Object> resource(long item) {
        return Map.of("resource", Map.of("type", "item-subresource", "itemId", item, "page", "filters"));
    }

    private static boolean queuedGrant(JsonNode frame) {
        return frame.path("event").asText().equals("lock-acquired")
                && frame.path("data").path("queued").asBoolean();
    }

    @Test
    void fiftyUsersOnOnePageOnTwoNodes() throws Exception {
        long[] ids = configuratorWithItem(nodeA);
        long c = ids[0];
        long item = ids[1];
        List<WsClient> all = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(WAITERS + ASKERS);
        try {
            WsClient holder = connect(all, nodeA, "holder", "Hana");
            WsClient watcherA = connect(all, nodeA, "watch-a", "Wade");
            WsClient watcherB = connect(all, nodeB, "watch-b", "Wanda");
            watcherA.request("watch", Map.of("configuratorId", c));
            watcherB.request("watch", Map.of("configuratorId", c));
            long firstToken = holder.request("lock-item-subresource", page(item))
                    .path("data")
                    .path("lock")
                    .path("token")
                    .asLong();

            // 40 waiters, half on each node, join at once; 10 askers ask the holder at once.
            List<WsClient> waiters = new ArrayList<>();
            for (int i = 0; i < WAITERS; i++) {
                waiters.add(connect(all, i % 2 == 0 ? nodeA : nodeB, "waiter-" + i, "Waiter " + i));
            }
            List<WsClient> askers = new ArrayList<>();
            for (int i = 0; i < ASKERS; i++) {
                askers.add(connect(all, i % 2 == 0 ? nodeB : nodeA, "asker-" + i, "Asker " + i));
            }
            CountDownLatch go = new CountDownLatch(1);
            List<Future<JsonNode>> joined = new ArrayList<>();
            for (WsClient waiter : waiters) {
                joined.add(pool.submit(() -> {
                    go.await();
                    return waiter.request("wait-for", resource(item));
                }));
            }
            List<Future<JsonNode>> asked = new ArrayList<>();
            for (WsClient asker : askers) {
                asked.add(pool.submit(() -> {
                    go.await();
                    return asker.request(
                            "request-takeover",
                            Map.of("resource", resource(item).get("resource"), "message", "please"));
                }));
            }
            go.countDown();
            Map<Integer, WsClient> byPosition = new HashMap<>();
            for (int i = 0; i < WAITERS; i++) {
                JsonNode reply = joined.get(i).get();
                assertEquals("queued", reply.path("event").asText(), reply.toString());
                byPosition.put(reply.path("data").path("position").asInt(), waiters.get(i));
            }
            assertEquals(WAITERS, byPosition.size(), "every waiter has a place of their own");
            assertEquals(Set.copyOf(IntStream.rangeClosed(1, WAITERS).boxed().toList()), byPosition.keySet());
            WsClient pendingAsker = null;
            Instant deadline = null;
            for (int i = 0; i < ASKERS; i++) {
                JsonNode reply = asked.get(i).get();
                if (reply.path("event").asText().equals("takeover-pending")) {
                    assertTrue(pendingAsker == null, "one take-over of a lock at a time");
                    pendingAsker = askers.get(i);
                    deadline = Instant.parse(reply.path("data").path("deadline").asText());
                } else {
                    assertEquals("BUSY", reply.path("data").path("code").asText(), reply.toString());
                }
            }
            assertTrue(pendingAsker != null, "one take-over request stands");
            watcherB.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                    && frame.path("data")
                                    .path("waiting")
                                    .path("item:" + item + ":filters")
                                    .asInt()
                            == WAITERS);

            // The holder refuses; the asker hears it, nothing changes.
            holder.awaitEvent("takeover-requested");
            holder.request("answer-takeover", Map.of("resource", resource(item).get("resource"), "accept", false));
            assertEquals(
                    "Hana",
                    pendingAsker
                            .awaitEvent("takeover-refused")
                            .path("data")
                            .path("byUserName")
                            .asText());

            // A second asker; the holder does not answer: at the deadline it is taken over.
            WsClient second = askers.get((askers.indexOf(pendingAsker) + 1) % ASKERS);
            JsonNode secondPending = second.request("request-takeover", resource(item));
            assertEquals("takeover-pending", secondPending.path("event").asText(), secondPending.toString());
            Instant secondDeadline =
                    Instant.parse(secondPending.path("data").path("deadline").asText());
            JsonNode handed = second.awaitEvent(
                    frame -> frame.path("event").asText().equals("takeover-granted"), CONSENT.plusSeconds(10));
            Instant handedAt = Instant.parse(
                    handed.path("data").path("lock").path("acquiredAt").asText());
            assertFalse(handedAt.isBefore(secondDeadline), "taken over at its deadline, not before: " + handed);
            assertEquals(
                    "taken-over",
                    holder.awaitEvent("lock-lost").path("data").path("reason").asText());
            long handedToken = handed.path("data").path("lock").path("token").asLong();
            assertTrue(handedToken > firstToken);

            // Each waiter unlocks as soon as it is served; the holder keeps trying to lock the page again.
            List<Long> servedOrder = Collections.synchronizedList(new ArrayList<>());
            List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
            List<Future<?>> served = new ArrayList<>();
            for (Map.Entry<Integer, WsClient> entry : byPosition.entrySet()) {
                served.add(pool.submit(() -> {
                    JsonNode grant =
                            entry.getValue().awaitEvent(WaitingAcrossNodesIT::queuedGrant, Duration.ofSeconds(120));
                    servedOrder.add((long) entry.getKey());
                    tokens.add(grant.path("data").path("lock").path("token").asLong());
                    JsonNode unlocked = entry.getValue().request("unlock-item-subresource", page(item));
                    assertEquals("lock-released", unlocked.path("event").asText(), unlocked.toString());
                    return null;
                }));
            }
            second.request("unlock-item-subresource", page(item));
            int refusedRelocks = 0;
            while (servedOrder.size() < WAITERS) {
                JsonNode relock = holder.request("lock-item-subresource", page(item));
                if (relock.path("event").asText().equals("lock-acquired")) {
                    // Only once the last waiter was served and done.
                    assertEquals(WAITERS, servedOrder.size(), "nobody slips in ahead of the line: " + relock);
                    break;
                }
                assertEquals(
                        "LOCKED",
                        relock.path("data").path("code").asText(),
                        "nobody slips in ahead of the line: " + relock);
                refusedRelocks++;
            }
            for (Future<?> future : served) {
                future.get();
            }
            assertTrue(refusedRelocks > 0);
            List<Long> expected = new ArrayList<>();
            for (long p = 1; p <= WAITERS; p++) {
                expected.add(p);
            }
            assertEquals(expected, servedOrder, "served in the order of the line");
            List<Long> sorted = new ArrayList<>(tokens);
            Collections.sort(sorted);
            assertEquals(sorted, tokens, "every grant a new, higher token");
            assertTrue(tokens.get(0) > handedToken);
            assertEquals(WAITERS, new HashSet<>(tokens).size());

            // Never two holders: every state any watcher saw names at most one lock of the page.
            for (WsClient watcher : List.of(watcherA, watcherB)) {
                for (JsonNode update : watcher.events("lock-updated")) {
                    assertTrue(update.path("data").path("locks").size() <= 1, update.toString());
                }
            }
            // The line is empty: the page is free for anyone, and watchers see no line.
            assertEquals(
                    "lock-acquired",
                    holder.request("lock-item-subresource", page(item))
                            .path("event")
                            .asText());
            watcherA.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                    && !frame.path("data").has("waiting")
                    && frame.path("data").path("locks").size() == 1
                    && frame.path("data")
                            .path("locks")
                            .get(0)
                            .path("ownerUserName")
                            .asText()
                            .equals("Hana"));
            assertTrue(deadline != null);
        } finally {
            pool.shutdownNow();
            all.forEach(WsClient::close);
        }
    }

    /**
     * §13 with a node gone: Abe asks Hana, whose node dies before she answers. Her lock stays until its
     * lease ends, and the surviving nodes' sweeps hand the page to Abe at the deadline, exactly once.
     */
    @Test
    void aTakeOverIsDecidedAtItsDeadlineWhenTheHoldersNodeDied() {
        ServerNode doomed = ServerNode.start("wait-doomed", settings());
        long[] ids = configuratorWithItem(nodeA);
        long item = ids[1];
        List<WsClient> all = new ArrayList<>();
        try {
            WsClient holder = connect(all, doomed, "holder-2", "Hana");
            WsClient askerHere = connect(all, nodeB, "asker-2", "Abe");
            WsClient watcher = connect(all, nodeA, "watcher-2", "Walt");
            watcher.request("watch", Map.of("configuratorId", ids[0]));
            holder.request("lock-item-subresource", page(item));
            JsonNode pending = askerHere.request("request-takeover", resource(item));
            assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
            Instant deadline =
                    Instant.parse(pending.path("data").path("deadline").asText());
            holder.awaitEvent("takeover-requested");

            doomed.kill9();

            JsonNode handed = askerHere.awaitEvent(
                    frame -> frame.path("event").asText().equals("takeover-granted"), CONSENT.plusSeconds(10));
            Instant handedAt = Instant.parse(
                    handed.path("data").path("lock").path("acquiredAt").asText());
            assertFalse(handedAt.isBefore(deadline), "taken over at its deadline, not before: " + handed);
            watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-released")
                    && frame.path("data").path("reason").asText().equals("taken-over"));
            // Exactly once, whichever node got there first: through a few more sweeps of both nodes.
            WsClient.stays(
                    () -> askerHere.events("takeover-granted").size() == 1
                            && watcher.events("lock-released").size() == 1,
                    SWEEP.multipliedBy(8),
                    "handed over exactly once");
        } finally {
            all.forEach(WsClient::close);
            doomed.close();
        }
    }

    /**
     * §13: the schedule of take-over deadlines is one key, which a Redis Cluster shard can lose alone. A
     * request that stood then is still ended at its deadline: the nodes that find the loss put its deadline
     * back on the schedule.
     */
    @Test
    void aTakeOverWhoseDeadlineScheduleWasLostIsStillDecidedAtItsDeadline() throws IOException {
        long[] ids = configuratorWithItem(nodeA);
        long item = ids[1];
        List<WsClient> all = new ArrayList<>();
        try {
            WsClient holder = connect(all, nodeA, "holder-lost", "Hana");
            WsClient asker = connect(all, nodeB, "asker-lost", "Abe");
            holder.request("lock-item-subresource", page(item));
            JsonNode pending = asker.request("request-takeover", resource(item));
            assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
            holder.awaitEvent("takeover-requested");

            assertEquals(":2", RedisAdmin.command(redis, "DEL", "editlock:takeover-deadlines", "editlock:store-mark"));

            JsonNode handed = asker.awaitEvent(
                    frame -> frame.path("event").asText().equals("takeover-granted"), CONSENT.plusSeconds(10));
            assertEquals(
                    "Abe",
                    handed.path("data").path("lock").path("ownerUserName").asText(),
                    handed.toString());
        } finally {
            all.forEach(WsClient::close);
        }
    }

    /**
     * §14: a user leaves the line when their last waiting socket went. A socket of a node that died
     * is known gone once its node stopped vouching for it (two leases after its last renewal): the
     * page then goes past it to the next in line, not to someone who can never use it.
     */
    @Test
    void aWaiterWhoseNodeDiedIsPassedOver() {
        ServerNode doomed = ServerNode.start("wait-doomed-line", settings());
        List<WsClient> all = new ArrayList<>();
        try {
            DeadWaiterScene scene = deadWaiterScene(all, doomed, "3");

            doomed.kill9();
            // Its last renewal vouched for Gina's socket for two leases; past that, it is known gone.
            Duration vouched = LEASE.multipliedBy(2);
            await().pollDelay(vouched.plusMillis(500))
                    .atMost(vouched.plusSeconds(2))
                    .until(() -> true);
            int seen = scene.watcher().received().size();
            scene.holder().request("unlock-item-subresource", page(scene.item()));

            scene.next().awaitEvent(WaitingAcrossNodesIT::queuedGrant);
            // The reaper may have taken Gina out of the line meanwhile: that state still names Hana.
            JsonNode state = await().atMost(Duration.ofSeconds(10))
                    .until(
                            () -> List.copyOf(scene.watcher().received()).stream()
                                    .skip(seen)
                                    .filter(frame -> frame.path("event")
                                                    .asText()
                                                    .equals("lock-updated")
                                            && frame.path("data").path("locks").size() == 1
                                            && !owner(frame).equals("holder-3"))
                                    .findFirst(),
                            Optional::isPresent)
                    .get();
            assertEquals("next-3", owner(state), "the page went to Kim, past the waiter whose node died: " + state);
        } finally {
            all.forEach(WsClient::close);
            doomed.close();
        }
    }

    /**
     * §14: a waiter whose node died leaves the line once its node stopped vouching for it, also while
     * the page stays held: those behind move up and watchers stop counting it, without waiting for a
     * release that may be hours away. The user's sockets on the nodes that live are told (reason
     * {@code expired}).
     */
    @Test
    void aWaiterWhoseNodeDiedLeavesTheLineWhileThePageIsHeld() {
        ServerNode doomed = ServerNode.start("wait-doomed-held", settings());
        List<WsClient> all = new ArrayList<>();
        try {
            DeadWaiterScene scene = deadWaiterScene(all, doomed, "5");
            // Gina's other tab, on a node that lives: it did not ask, and is told when her place ends.
            WsClient otherTab = connect(all, nodeB, "ghost-5", "Gina");

            doomed.kill9();

            // Vouched for two leases from its last renewal; the reaper looks at least once a lease.
            Duration gonePast = LEASE.multipliedBy(3).plusSeconds(5);
            JsonNode moved = scene.next()
                    .awaitEvent(frame -> frame.path("event").asText().equals("queue-updated"), gonePast);
            assertEquals(1, moved.path("data").path("position").asInt(), "Kim is next now: " + moved);
            JsonNode state = scene.watcher()
                    .awaitEvent(
                            frame -> frame.path("event").asText().equals("lock-updated")
                                    && waiting(frame, scene.item()) == 1,
                            gonePast);
            assertEquals("holder-5", owner(state), "the page is still Hana's: " + state);
            assertTrue(
                    scene.holder().events("lock-lost").isEmpty(),
                    "nothing was released: " + scene.holder().received());
            JsonNode told =
                    otherTab.awaitEvent(frame -> frame.path("event").asText().equals("not-waiting"), gonePast);
            assertEquals("expired", told.path("data").path("reason").asText(), "Gina's other tab learns why: " + told);
        } finally {
            all.forEach(WsClient::close);
            doomed.close();
        }
    }

    /** Hana holds a page; Gina ({@code first}), on the doomed node, waits for it first, Kim second; Wu watches. */
    private record DeadWaiterScene(long item, WsClient holder, WsClient first, WsClient next, WsClient watcher) {}

    /** @param run told apart in user ids, so that one test's users are not another's */
    private DeadWaiterScene deadWaiterScene(List<WsClient> all, ServerNode doomed, String run) {
        long[] ids = configuratorWithItem(nodeA);
        long c = ids[0];
        long item = ids[1];
        WsClient holder = connect(all, nodeA, "holder-" + run, "Hana");
        WsClient gone = connect(all, doomed, "ghost-" + run, "Gina");
        WsClient next = connect(all, nodeA, "next-" + run, "Kim");
        WsClient watcher = connect(all, nodeB, "watcher-" + run, "Wu");
        holder.request("lock-item-subresource", page(item));
        assertEquals(1, position(gone.request("wait-for", resource(item))));
        assertEquals(2, position(next.request("wait-for", resource(item))));
        watcher.request("watch", Map.of("configuratorId", c));
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated") && waiting(frame, item) == 2);
        return new DeadWaiterScene(item, holder, gone, next, watcher);
    }

    /**
     * §14 and §13: a node cut off from the store for longer than two leases is alive after all. The
     * places and the take-over request of its users ended meanwhile (no node vouched for their
     * sockets), and once the node hears so its users are told, instead of waiting for a page that
     * never comes: {@code not-waiting} to the waiter, and to the asker what stands in the way now
     * (the holder, who did not refuse, still has the page: {@code lock-failed} {@code LOCKED}).
     */
    @Test
    void theUsersOfANodeCutOffFromTheStoreAreToldTheirPlacesEnded() throws IOException {
        JsonNode outcome = cutOffScene("7", false);
        assertEquals("lock-failed", outcome.path("event").asText(), outcome.toString());
        assertEquals("LOCKED", outcome.path("data").path("code").asText(), outcome.toString());
        assertEquals("Hana", outcome.path("data").path("lockedBy").asText(), outcome.toString());
    }

    /**
     * As above, but the node's subscription ended while it was cut off, so it hears nothing of the
     * end: it makes up for it once it listens again. A request that ended unseen is judged by the page
     * as it stands (§13): its holder still has it, so it arrives as refused.
     */
    @Test
    void theUsersOfANodeCutOffFromTheStoreAreToldWhenItListensAgain() throws IOException {
        JsonNode outcome = cutOffScene("8", true);
        assertEquals("takeover-refused", outcome.path("event").asText(), outcome.toString());
        assertEquals("Hana", outcome.path("data").path("byUserName").asText(), outcome.toString());
    }

    /**
     * Gina waits first and Ivo asks for a take-over of Hana's page, both on a node that then stands still
     * for three leases; meanwhile Kim moves up. Checks that Gina is told her place ended and may line up
     * again; returns what Ivo was told.
     *
     * @param subscriptionCut whether the node's subscription ends while it stands still
     */
    private JsonNode cutOffScene(String run, boolean subscriptionCut) throws IOException {
        Map<String, String> slowConsent = new HashMap<>(settings());
        slowConsent.put("editlock.waiting.consent-window", LEASE.multipliedBy(8).toMillis() + "ms");
        ServerNode cutOff = ServerNode.start("wait-cut-off-" + run, slowConsent);
        List<WsClient> all = new ArrayList<>();
        try {
            DeadWaiterScene scene = deadWaiterScene(all, cutOff, run);
            WsClient asker = connect(all, cutOff, "asker-" + run, "Ivo");
            JsonNode pending = asker.request("request-takeover", resource(scene.item()));
            assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
            scene.holder().awaitEvent("takeover-requested");

            cutOff.freeze();
            try {
                if (subscriptionCut) {
                    // Every node's: the others listen again at once and make up for nothing they missed.
                    RedisAdmin.command(redis, "CLIENT", "KILL", "TYPE", "pubsub");
                }
                // Vouched for two leases from its last renewal; the reaper looks at least once a lease.
                scene.next()
                        .awaitEvent(
                                frame -> frame.path("event").asText().equals("queue-updated"),
                                LEASE.multipliedBy(3).plusSeconds(5));
            } finally {
                cutOff.thaw();
            }

            JsonNode ended = scene.first().awaitEvent("not-waiting");
            assertEquals(
                    scene.item(),
                    ended.path("data").path("resource").path("itemId").asLong(),
                    ended.toString());
            assertTrue(ended.path("ref").isMissingNode(), "nobody asked: " + ended);
            // A node that heard the end knows why; one that missed it does not say.
            assertEquals(
                    subscriptionCut ? "" : "expired",
                    ended.path("data").path("reason").asText(),
                    ended.toString());
            assertEquals(
                    2,
                    position(scene.first().request("wait-for", resource(scene.item()))),
                    "Gina can line up again, behind Kim");
            return asker.awaitEvent(frame -> !frame.has("ref")
                    && List.of("lock-failed", "takeover-refused", "takeover-granted")
                            .contains(frame.path("event").asText()));
        } finally {
            all.forEach(WsClient::close);
            cutOff.close();
        }
    }

    private static int position(JsonNode queued) {
        assertEquals("queued", queued.path("event").asText(), queued.toString());
        return queued.path("data").path("position").asInt();
    }

    private static int waiting(JsonNode lockUpdated, long item) {
        return lockUpdated
                .path("data")
                .path("waiting")
                .path("item:" + item + ":filters")
                .asInt();
    }

    private static String owner(JsonNode lockUpdated) {
        return lockUpdated.path("data").path("locks").get(0).path("ownerUserId").asText();
    }

    /**
     * §13, §5: a take-over request ends without a word when its asker's last socket went. At the
     * deadline, an asker whose node's heartbeat ended (five seconds after its last beat) has gone, even
     * while its place still counts (two leases after its node's last renewal): the holder keeps the page.
     * The window ends between the two, so only the heartbeat tells.
     */
    @Test
    void aTakeOverWhoseAskersNodeDiedIsNotHandedOver() {
        Map<String, String> slowConsent = new HashMap<>(settings());
        slowConsent.put(
                "editlock.waiting.consent-window",
                LEASE.multipliedBy(2).minusMillis(500).toMillis() + "ms");
        ServerNode doomed = ServerNode.start("wait-doomed-asker", slowConsent);
        long[] ids = configuratorWithItem(nodeA);
        long item = ids[1];
        List<WsClient> all = new ArrayList<>();
        try {
            WsClient holder = connect(all, nodeA, "holder-4", "Fred");
            WsClient asker = connect(all, doomed, "asker-4", "Eve");
            holder.request("lock-item-subresource", page(item));
            JsonNode pending = asker.request("request-takeover", resource(item));
            assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
            Instant deadline =
                    Instant.parse(pending.path("data").path("deadline").asText());
            holder.awaitEvent("takeover-requested");

            doomed.kill9();

            WsClient.stays(
                    () -> holder.events("lock-lost").isEmpty(),
                    max(Duration.between(Instant.now(), deadline), Duration.ZERO)
                            .plus(SWEEP.multipliedBy(8)),
                    "Fred keeps his page past the deadline: nobody is left to take it");
        } finally {
            all.forEach(WsClient::close);
            doomed.close();
        }
    }

    /**
     * §5, §14: a place in a line moves with a resume, and so does the node that follows it: a waiter whose
     * socket dropped from node A and resumed on node B is told there how they move up.
     */
    @Test
    void aWaiterWhoResumesOnAnotherNodeIsToldThereHowTheyMoveUp() {
        long item = configuratorWithItem(nodeA)[1];
        List<WsClient> all = new ArrayList<>();
        try {
            WsClient holder = connect(all, nodeA, "holder-resume", "Hana");
            WsClient first = connect(all, nodeA, "first-resume", "Fay");
            WsClient tomOnA = connect(all, nodeA, "tom-resume", "Tom");
            WsClient tomOnB = connect(all, nodeB, "tom-resume", "Tom");
            holder.request("lock-item-subresource", page(item));
            assertEquals(
                    1,
                    first.request("wait-for", resource(item))
                            .path("data")
                            .path("position")
                            .asInt());
            JsonNode queued = tomOnA.request("wait-for", resource(item));
            assertEquals(2, queued.path("data").path("position").asInt(), queued.toString());
            String resumeToken = tomOnA.resumeToken();

            tomOnA.drop();
            // Until node A has seen the drop, the old socket is still open for it: a client retries then.
            JsonNode resumed = await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(
                            () -> tomOnB.request("resume", Map.of("resumeToken", resumeToken)),
                            reply -> reply.path("event").asText().equals("resumed"));
            assertEquals("resumed", resumed.path("event").asText(), resumed.toString());

            first.request("stop-waiting", resource(item));
            JsonNode moved = tomOnB.awaitEvent("queue-updated");
            assertEquals(1, moved.path("data").path("position").asInt(), "Tom is next now: " + moved);
            holder.request("unlock-item-subresource", page(item));
            tomOnB.awaitEvent(WaitingAcrossNodesIT::queuedGrant);
        } finally {
            all.forEach(WsClient::close);
        }
    }

    private WsClient connect(List<WsClient> all, ServerNode node, String userId, String name) {
        WsClient socket = WsClient.connect(node.baseUri(), tokens.token(userId, name));
        socket.welcome();
        all.add(socket);
        return socket;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
