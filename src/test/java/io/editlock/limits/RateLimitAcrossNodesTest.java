package io.editlock.limits;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.ScriptExecutor;
import io.editlock.redis.SkewedStoreClock;
import io.editlock.redis.StoreClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The limit holds for all nodes together although each node spends blocks of the user's window
 * locally: two rate limiters (two nodes' worth of local state) on the same Redis, hammered from
 * several threads each, never allow more than 50 in a window — and exactly 50 when both keep asking;
 * also when one node's own clock is off.
 */
@QuarkusTest
class RateLimitAcrossNodesTest {

    private static final int LIMIT = 50;
    private static final int PER_THREAD = 40;
    private static final int THREADS_PER_NODE = 4;

    @Inject
    ScriptExecutor scripts;

    @Inject
    LockKeys keys;

    @Inject
    EditlockConfig config;

    @Inject
    PipelinedRedis redis;

    @Test
    void twoNodesTogetherAllowTheLimitAndNoMore() throws Exception {
        assertEquals(LIMIT, config.rateLimit().lockRequestsPerSecond(), "the test assumes the default limit");
        for (int round = 0; round < 5; round++) {
            String user = "rate-" + UUID.randomUUID();
            SharedRateLimit nodeA = new SharedRateLimit(
                    scripts,
                    keys::lockRequestRate,
                    config.rateLimit().lockRequestsPerSecond(),
                    System::currentTimeMillis);
            SharedRateLimit nodeB = new SharedRateLimit(
                    scripts,
                    keys::lockRequestRate,
                    config.rateLimit().lockRequestsPerSecond(),
                    System::currentTimeMillis);
            assertBothTogetherAllowTheLimitAndNoMore(nodeA, nodeB, user, 0);
        }
    }

    /**
     * Node B's own clock runs half a second ahead. Counting in its own seconds, it would spend a window
     * of the user's that node A's requests of the same second do not share, and the two together would
     * allow twice the limit; on Redis's clock, as B reads it, they share every window.
     */
    @Test
    void aNodeWhoseOwnClockIsOffCountsInTheSameSecondsAsTheOthers() throws Exception {
        for (int round = 0; round < 3; round++) {
            String user = "rate-skewed-" + UUID.randomUUID();
            SharedRateLimit nodeA = new SharedRateLimit(
                    scripts, keys::lockRequestRate, LIMIT, System::currentTimeMillis); // Redis runs on this machine
            StoreClock clockOfB = SkewedStoreClock.of(redis, 500);
            clockOfB.read().await().atMost(Duration.ofSeconds(5));
            SharedRateLimit nodeB = new SharedRateLimit(scripts, keys::lockRequestRate, LIMIT, clockOfB::nowMillis);
            // Half past: B's own clock is on the next second by then, where A's second has not ended.
            assertBothTogetherAllowTheLimitAndNoMore(nodeA, nodeB, user, 500);
        }
    }

    private static void assertBothTogetherAllowTheLimitAndNoMore(
            SharedRateLimit nodeA, SharedRateLimit nodeB, String user, int startingAtMillis) throws Exception {
        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5)).until(() -> {
            long intoSecond = System.currentTimeMillis() % 1000;
            return intoSecond >= startingAtMillis && intoSecond < startingAtMillis + 100;
        });

        ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_NODE);
        try {
            List<Future<List<long[]>>> results = new ArrayList<>();
            for (int t = 0; t < 2 * THREADS_PER_NODE; t++) {
                SharedRateLimit node = t % 2 == 0 ? nodeA : nodeB;
                results.add(pool.submit(burst(node, user)));
            }
            Map<Long, long[]> perWindow = new TreeMap<>(); // window -> {requests, allowed}
            for (Future<List<long[]>> result : results) {
                for (long[] answer : result.get()) {
                    long[] counts = perWindow.computeIfAbsent(answer[0], w -> new long[2]);
                    counts[0]++;
                    counts[1] += answer[1];
                }
            }
            perWindow.forEach((window, counts) -> assertTrue(
                    window < 0 || counts[1] <= LIMIT,
                    "window " + window + " allowed " + counts[1] + " of " + counts[0] + " requests, over the limit"));
            if (perWindow.size() == 1) {
                long allowed = perWindow.values().iterator().next()[1];
                assertEquals(LIMIT, allowed, "both nodes kept asking in one window: the whole limit is spent");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** @return per request: {window, 1 if allowed else 0} */
    private static Callable<List<long[]>> burst(SharedRateLimit node, String user) {
        return () -> {
            List<long[]> answers = new ArrayList<>();
            for (int i = 0; i < PER_THREAD; i++) {
                long window = System.currentTimeMillis() / 1000;
                boolean allowed = node.allow(user).await().atMost(Duration.ofSeconds(5)) == Verdict.ALLOWED;
                if (window == System.currentTimeMillis() / 1000) {
                    answers.add(new long[] {window, allowed ? 1 : 0});
                } else {
                    answers.add(new long[] {-1, allowed ? 1 : 0}); // straddled a window boundary: which one is unknown
                }
            }
            return answers;
        };
    }
}
