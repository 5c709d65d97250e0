package io.editlock.waiting;

import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.filters;
import static io.editlock.support.Sockets.page;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.Holder;
import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.ScriptExecutor;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.FrozenRedis;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4, §13, §14: a {@code wait-for} or {@code request-takeover} the store did not
 * answer in time is answered UNAVAILABLE, and its requester holds nothing for it: not a place in the
 * line, not a pending take-over, not a grant either of them made meanwhile. Redis is frozen right
 * before the request's script goes out and thawed once the requester has its answer, so the script
 * runs after the server gave up; the withdrawal is held back until that late run has shown itself.
 */
@QuarkusTest
@TestProfile(FrozenRedis.class)
class TimedOutWaitingRequestTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockService locks;

    @Inject
    PipelinedRedis pipelined;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    WaitingScripts scripts;

    @Inject
    ScriptExecutor executor;

    private final Sockets sockets = new Sockets();
    /** Opened by a test when the withdrawal of the request that timed out may reach the store. */
    private final CompletableFuture<Void> withdrawal = new CompletableFuture<>();

    /** Redis knows every script, as after the readiness check: a script run late is not refused as unknown. */
    @BeforeEach
    void preload() {
        executor.preload().await().atMost(WAIT);
    }

    @AfterEach
    void close() {
        withdrawal.complete(null);
        sockets.close();
    }

    private WsClient connect(TestUser user) {
        return sockets.connect(base, user);
    }

    @Test
    void aWaitForAnsweredUnavailableLeavesNoPlaceInTheLine() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser tomUser = DemoLogin.user("Tom");
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(tomUser);
        WsClient watcher = watching(c);
        sara.request("lock-item-subresource", page(item));

        unavailable(c, tom, "wait_for", () -> tom.request("wait-for", about(item)));
        watcher.awaitEvent(frame -> waiting(frame, item) == 1); // the store put Tom in the line after all
        withdrawal.complete(null);

        await().atMost(WAIT).untilAsserted(() -> assertFalse(waits(c, item, tomUser), "Tom must wait nowhere"));
        assertEquals(
                0, waiting(watcher.request("watch", Map.of("configuratorId", c)), item), "nobody waits for the page");
        sara.request("unlock-item-subresource", page(item));
        assertEquals(List.of(), locks.locks(c).await().atMost(WAIT), "the free page goes to nobody");
    }

    @Test
    void aGrantFromTheLineOfAWaitForAnsweredUnavailableIsGivenBack() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser tomUser = DemoLogin.user("Tom");
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient tom = connect(tomUser);
        WsClient watcher = watching(c);
        sara.request("lock-item-subresource", page(item));

        unavailable(c, tom, "wait_for", () -> tom.request("wait-for", about(item)));
        watcher.awaitEvent(frame -> waiting(frame, item) == 1);
        // Served before the store hears of the withdrawal: Tom holds the page for a moment.
        sara.request("unlock-item-subresource", page(item));
        tom.awaitEvent(frame -> frame.path("event").asText().equals("lock-acquired")
                && frame.path("data").path("queued").asBoolean());
        withdrawal.complete(null);

        assertGivenBack(c, item, tomUser, tom, watcher);
    }

    /** The page is free: the wait-for asks for the lock, and that request is the one the store does not answer. */
    @Test
    void aWaitForOfAFreePageAnsweredUnavailableNamesItsConfigurator() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient tom = connect(DemoLogin.user("Tom"));

        unavailable(c, tom, "acquire_lock", () -> tom.request("wait-for", about(item)));
    }

    @Test
    void aTakeOverRequestAnsweredUnavailableIsWithdrawn() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser saraUser = DemoLogin.user("Sara");
        WsClient sara = connect(saraUser);
        WsClient bob = connect(DemoLogin.user("Bob"));
        sara.request("lock-item-subresource", page(item));

        unavailable(c, bob, "request_takeover", () -> bob.request("request-takeover", about(item)));
        sara.awaitEvent("takeover-requested"); // the store took the request after all
        withdrawal.complete(null);

        String field = Resource.itemPage(item, Page.FILTERS).field();
        await().atMost(WAIT)
                .untilAsserted(() -> assertFalse(
                        redis.hash(String.class)
                                .hexists(keys.waiting(c).get(3), field)
                                .await()
                                .atMost(WAIT),
                        "no take-over of the page may be pending"));
        JsonNode answer = sara.request("answer-takeover", Map.of("resource", filters(item), "accept", true));
        assertEquals("NOT_FOUND", answer.path("data").path("code").asText(), "nothing to answer: " + answer);
        List<Lock> held = locks.locks(c).await().atMost(WAIT);
        assertEquals(1, held.size(), "Sara keeps the page: " + held);
        assertEquals(saraUser.id(), held.get(0).ownerUserId());
    }

    @Test
    void aHandOverOfATakeOverAnsweredUnavailableIsGivenBack() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser bobUser = DemoLogin.user("Bob");
        WsClient sara = connect(DemoLogin.user("Sara"));
        WsClient bob = connect(bobUser);
        WsClient watcher = watching(c);
        sara.request("lock-item-subresource", page(item));

        unavailable(c, bob, "request_takeover", () -> bob.request("request-takeover", about(item)));
        sara.awaitEvent("takeover-requested");
        // Handed over before the store hears of the withdrawal: Bob holds the page for a moment.
        sara.request("answer-takeover", Map.of("resource", filters(item), "accept", true));
        bob.awaitEvent("takeover-granted");
        withdrawal.complete(null);

        assertGivenBack(c, item, bobUser, bob, watcher);
    }

    /** The script itself: a request that reaches the store after its withdrawal does nothing. */
    @Test
    void onlyTheWithdrawnRequestIsUndone() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        Resource page = Resource.itemPage(item, Page.FILTERS).inConfigurator(c);
        Holder sara = Fixtures.user("Sara");
        Holder tom = Fixtures.user("Tom");
        Holder omar = Fixtures.user("Omar");
        locks.acquire(page, sara).await().atMost(WAIT);
        Duration keepVoid = Duration.ofMinutes(1);

        scripts.withdraw(WaitingScripts.Asked.WAIT_FOR, page, tom, 7, keepVoid)
                .await()
                .atMost(WAIT);
        assertInstanceOf(
                WaitReply.GivenUp.class,
                scripts.waitFor(page, tom, true, 7).await().atMost(WAIT),
                "withdrawn before it ran: it must do nothing");
        assertFalse(waits(c, item, tom.userId()), "Tom must not wait");

        // Omar's socket waits, then asks again and is told UNAVAILABLE: the place it had stays.
        scripts.waitFor(page, omar, true, 8).await().atMost(WAIT);
        scripts.waitFor(page, omar, true, 9).await().atMost(WAIT);
        scripts.withdraw(WaitingScripts.Asked.WAIT_FOR, page, omar, 9, keepVoid)
                .await()
                .atMost(WAIT);
        assertTrue(waits(c, item, omar.userId()), "Omar's place stands by the request that made it");
    }

    /** Freezes Redis right before {@code script} goes out for {@code request}, and holds its withdrawal back. */
    /**
     * The request goes out without the item's configurator; the server found it before the store
     * stopped answering, so the refusal names it (docs/protocol.md §4).
     */
    private void unavailable(long c, WsClient requester, String script, Supplier<JsonNode> request) {
        ScriptHooks hooks = ScriptHooks.install(pipelined);
        hooks.beforeNext(script, FrozenRedis::frozen);
        hooks.beforeNext("withdraw_waiting_request", () -> Uni.createFrom().completionStage(withdrawal));
        JsonNode reply;
        try {
            reply = request.get();
        } finally {
            FrozenRedis.thaw();
        }
        assertEquals("lock-failed", reply.path("event").asText(), reply.toString());
        assertEquals("UNAVAILABLE", reply.path("data").path("code").asText(), reply.toString());
        assertEquals(
                c, reply.path("data").path("resource").path("configuratorId").asLong(), reply.toString());
        assertFalse(requester.isClosed());
    }

    /** The grant went back as any release: lock-lost to the requester, lock-released to watchers, nobody holds it. */
    private void assertGivenBack(long c, long item, TestUser requester, WsClient socket, WsClient watcher) {
        JsonNode lost = socket.awaitEvent(frame -> frame.path("event").asText().equals("lock-lost")
                && frame.path("data").path("resource").path("itemId").asLong() == item);
        assertEquals("unlock", lost.path("data").path("reason").asText(), lost.toString());
        JsonNode released =
                watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-released")
                        && frame.path("data").path("ownerUserId").asText().equals(requester.id()));
        assertEquals("unlock", released.path("data").path("reason").asText(), released.toString());
        await().atMost(WAIT)
                .untilAsserted(() ->
                        assertEquals(List.of(), locks.locks(c).await().atMost(WAIT), "the grant must have gone back"));
        assertFalse(waits(c, item, requester.id()), "and nobody waits");
    }

    private WsClient watching(long c) {
        WsClient watcher = connect(DemoLogin.user("Lea"));
        watcher.request("watch", Map.of("configuratorId", c));
        return watcher;
    }

    private boolean waits(long c, long item, TestUser user) {
        return waits(c, item, user.id());
    }

    private boolean waits(long c, long item, String userId) {
        String field = Resource.itemPage(item, Page.FILTERS).field();
        return redis.hash(String.class)
                .hexists(keys.waiting(c).get(2), field + "|" + userId)
                .await()
                .atMost(WAIT);
    }

    /** The number of waiters of the item's filters page that a lock-updated shows; 0 when none. */
    private static int waiting(JsonNode frame, long item) {
        return frame.path("event").asText().equals("lock-updated")
                ? frame.path("data")
                        .path("waiting")
                        .path("item:" + item + ":filters")
                        .asInt(0)
                : -1;
    }
}
