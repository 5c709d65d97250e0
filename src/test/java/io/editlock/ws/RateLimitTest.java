package io.editlock.ws;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4 and §11: at most 50 lock requests ({@code lock-*}) per user and one-second window,
 * across all of the user's sockets; more are refused with {@code lock-failed RATE_LIMITED}; the
 * next window works again; other users are not affected; other requests are not counted.
 */
@QuarkusTest
class RateLimitTest {

    /** Per socket: 2 × 80 = 160 requests, more than 50 in each of up to three windows the burst may touch. */
    private static final int PER_SOCKET = 80;

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    MeterRegistry meters;

    @Test
    void moreThanFiftyLockRequestsASecondAreRateLimitedPerUser() {
        long c = Fixtures.configurator(store);
        long d = Fixtures.configurator(store);
        var sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token());
                WsClient tab2 = WsClient.connect(base, sara.token());
                WsClient omar = WsClient.connect(base, DemoLogin.user("Omar").token())) {
            tab1.welcome();
            tab2.welcome();
            omar.welcome();
            double refusedBefore = lockRequestRefusals();
            awaitStartOfASecond();

            List<String> tab1Refs = new ArrayList<>();
            List<String> tab2Refs = new ArrayList<>();
            List<String> omarRefs = new ArrayList<>();
            for (int i = 0; i < PER_SOCKET; i++) {
                tab1Refs.add(tab1.send("lock-variables", Map.of("configuratorId", c)));
                tab2Refs.add(tab2.send("lock-variables", Map.of("configuratorId", c)));
                if (i % 10 == 5) {
                    omarRefs.add(omar.send("lock-variables", Map.of("configuratorId", d)));
                }
            }
            List<JsonNode> replies = new ArrayList<>();
            tab1Refs.forEach(ref -> replies.add(tab1.reply(ref)));
            tab2Refs.forEach(ref -> replies.add(tab2.reply(ref)));
            long burstEnded = System.currentTimeMillis();

            long limited = replies.stream().filter(RateLimitTest::isRateLimited).count();
            long granted = replies.stream()
                    .filter(r -> "lock-acquired".equals(r.path("event").asText()))
                    .count();
            assertEquals(
                    replies.size(),
                    limited + granted,
                    "every lock request is either granted or rate-limited: " + replies);
            assertTrue(limited > 0, "160 lock requests of one user in a burst must meet the limit of 50 a second");
            assertTrue(granted >= 50, "the first 50 of a window must be granted, got " + granted);
            assertEquals(
                    limited,
                    (long) (lockRequestRefusals() - refusedBefore),
                    "each refusal is counted in editlock_limit_refusals_total{limit=\"lock-requests\"}");
            JsonNode refusal = replies.stream()
                    .filter(RateLimitTest::isRateLimited)
                    .findFirst()
                    .orElseThrow();
            assertEquals(
                    "variables",
                    refusal.path("data").path("resource").path("type").asText(),
                    "resource: " + refusal);
            assertEquals(
                    c,
                    refusal.path("data").path("resource").path("configuratorId").asLong(),
                    "resource: " + refusal);
            assertTrue(
                    !refusal.path("data").path("message").asText().isBlank(), "RATE_LIMITED must say why: " + refusal);

            for (String ref : omarRefs) {
                JsonNode reply = omar.reply(ref);
                assertEquals(
                        "lock-acquired",
                        reply.path("event").asText(),
                        "another user is not limited by Sara's burst: " + reply);
            }

            await().atMost(Duration.ofSeconds(3)).until(() -> System.currentTimeMillis() / 1000 > burstEnded / 1000);
            JsonNode next = tab1.request("lock-variables", Map.of("configuratorId", c));
            assertEquals("lock-acquired", next.path("event").asText(), "the next second must work again: " + next);
        }
    }

    /**
     * Only {@code lock-*} requests count toward the user's lock-request rate (docs/protocol.md §11):
     * a burst of wait-for, more than that rate but under the socket's frame rate, is served whole.
     */
    @Test
    void waitForIsNotCountedAsALockRequest() {
        long c = Fixtures.configurator(store);
        try (WsClient tab = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            tab.welcome();
            awaitStartOfASecond();
            List<String> refs = new ArrayList<>();
            for (int i = 0; i < 2 * PER_SOCKET; i++) { // more than 50, fewer than the socket's 200 frames a second
                refs.add(tab.send("wait-for", Map.of("resource", Map.of("type", "variables", "configuratorId", c))));
            }
            List<JsonNode> replies = refs.stream().map(tab::reply).toList();
            long granted = replies.stream()
                    .filter(r -> "lock-acquired".equals(r.path("event").asText()))
                    .count();
            assertEquals(
                    replies.size(),
                    granted,
                    "every wait-for of a page the user may have is granted, none rate-limited: "
                            + replies.stream()
                                    .filter(RateLimitTest::isRateLimited)
                                    .toList());
        }
    }

    @Test
    void onlyLockRequestsAreCounted() {
        long c = Fixtures.configurator(store);
        var sara = DemoLogin.user("Sara");
        try (WsClient tab = WsClient.connect(base, sara.token())) {
            tab.welcome();
            awaitStartOfASecond();
            List<String> others = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                others.add(tab.send("unlock-variables", Map.of("configuratorId", c)));
                others.add(tab.send("touch", Map.of()));
            }
            List<String> locks = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                locks.add(tab.send("lock-variables", Map.of("configuratorId", c)));
            }
            for (String ref : others) {
                JsonNode reply = tab.reply(ref);
                assertTrue(!isRateLimited(reply), "unlock and touch are not rate-limited: " + reply);
            }
            for (String ref : locks) {
                JsonNode reply = tab.reply(ref);
                assertEquals(
                        "lock-acquired",
                        reply.path("event").asText(),
                        "120 unlocks and touches must not use up the 50 lock requests of the window: " + reply);
            }
        }
    }

    private double lockRequestRefusals() {
        Counter counter = meters.find("editlock.limit.refusals")
                .tag("limit", "lock-requests")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private static boolean isRateLimited(JsonNode reply) {
        return "lock-failed".equals(reply.path("event").asText())
                && "RATE_LIMITED".equals(reply.path("data").path("code").asText());
    }

    /** Starts a burst early in a one-second window, so that it spans as few windows as possible. */
    private static void awaitStartOfASecond() {
        await().atMost(Duration.ofSeconds(2))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> System.currentTimeMillis() % 1000 < 100);
    }
}
