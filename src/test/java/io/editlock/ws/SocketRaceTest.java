package io.editlock.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.TestInstance;

/**
 * docs/protocol.md §2, "every decision is atomic", over the wire: 100 users on 100 sockets ask for the same
 * configurator at the same moment; exactly one gets it, and every other one is refused naming that
 * one. Repeated, each time for a new configurator.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SocketRaceTest {

    private static final int SOCKETS = 100;

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockService locks;

    private final List<TestUser> users = new ArrayList<>();
    private final List<WsClient> sockets = new ArrayList<>();
    private ExecutorService senders;

    /**
     * The same 100 sockets race in every repetition, each time for a new configurator. Connected in
     * the first @BeforeEach, not @BeforeAll: demo login needs the test's HTTP port, set per test.
     */
    @BeforeEach
    void connectOnce() {
        if (!sockets.isEmpty()) {
            return;
        }
        for (int i = 0; i < SOCKETS; i++) {
            TestUser user = DemoLogin.user("Racer" + i);
            users.add(user);
            sockets.add(WsClient.connect(base, user.token()));
        }
        sockets.forEach(WsClient::welcome);
        senders = Executors.newFixedThreadPool(SOCKETS);
    }

    @AfterAll
    void disconnect() {
        if (senders != null) {
            senders.shutdownNow();
        }
        sockets.forEach(WsClient::close);
    }

    @RepeatedTest(5)
    void exactlyOneOfAHundredSimultaneousRequestsWins() throws InterruptedException {
        long c = Fixtures.configurator(store);
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<String>> sent = new ArrayList<>();
        for (WsClient socket : sockets) {
            sent.add(CompletableFuture.supplyAsync(
                    () -> {
                        awaitQuietly(start);
                        return socket.send("lock-configurator", Map.of("configuratorId", c));
                    },
                    senders));
        }
        start.countDown();

        List<JsonNode> replies = new ArrayList<>();
        for (int i = 0; i < SOCKETS; i++) {
            replies.add(sockets.get(i).reply(sent.get(i).join()));
        }

        List<Integer> winners = new ArrayList<>();
        for (int i = 0; i < SOCKETS; i++) {
            if ("lock-acquired".equals(replies.get(i).path("event").asText())) {
                winners.add(i);
            }
        }
        assertEquals(
                1,
                winners.size(),
                "exactly one of " + SOCKETS + " simultaneous requests must be granted, winners: " + winners);
        TestUser winner = users.get(winners.get(0));
        for (int i = 0; i < SOCKETS; i++) {
            if (i == winners.get(0)) {
                continue;
            }
            JsonNode reply = replies.get(i);
            assertEquals("lock-failed", reply.path("event").asText(), "every other request must be refused: " + reply);
            assertEquals("LOCKED", reply.path("data").path("code").asText(), "refused because it is held: " + reply);
            assertEquals(
                    winner.name(),
                    reply.path("data").path("lockedBy").asText(),
                    "the refusal must name the winner: " + reply);
            assertEquals(
                    winner.id(),
                    reply.path("data").path("lockedByUserId").asText(),
                    "the refusal must name the winner: " + reply);
        }
        List<Lock> stored = locks.locks(c).await().atMost(Duration.ofSeconds(10));
        assertEquals(1, stored.size(), "the store holds exactly one lock: " + stored);
        assertEquals(winner.id(), stored.get(0).ownerUserId(), "the store's lock is the winner's: " + stored);
        assertEquals(
                Set.of(sockets.get(winners.get(0)).socketId()),
                stored.get(0).keepers().keySet(),
                "only the winner's socket keeps it; no refused socket was left as a keeper");
    }

    private static void awaitQuietly(CountDownLatch start) {
        try {
            start.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
