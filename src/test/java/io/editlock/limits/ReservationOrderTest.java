package io.editlock.limits;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.redis.LockKeys;
import io.editlock.redis.ScriptExecutor;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The requests of a user are served in the order they came: of fourteen against a limit of ten a
 * second (blocks of two), the first ten are allowed and the last four refused, against a real Redis.
 * The requests come all at once, and then spaced by a few tenths of a millisecond, so that Redis's
 * answers to reservations arrive, on an event loop, while later requests are still coming in: a
 * newcomer must not take a block that earlier requests are waiting for.
 */
@QuarkusTest
class ReservationOrderTest {

    private static final int LIMIT = 10;
    private static final int ASKED = 14;

    @Inject
    ScriptExecutor scripts;

    @Inject
    LockKeys keys;

    @Test
    void theFirstToAskAreTheFirstAllowed() throws Exception {
        List<Verdict> expected = new ArrayList<>(Collections.nCopies(LIMIT, Verdict.ALLOWED));
        expected.addAll(Collections.nCopies(ASKED - LIMIT, Verdict.REFUSED));
        long[] gapsNanos = {0, 0, 100_000, 200_000, 300_000, 400_000};
        for (long gap : gapsNanos) {
            String user = "order-" + UUID.randomUUID();
            SharedRateLimit limit =
                    new SharedRateLimit(scripts, keys::lockRequestRate, LIMIT, System::currentTimeMillis);
            startOfASecond();

            List<CompletableFuture<Verdict>> asked = new ArrayList<>();
            for (int i = 0; i < ASKED; i++) {
                asked.add(limit.allow(user).subscribeAsCompletionStage());
                pause(gap);
            }
            List<Verdict> verdicts = new ArrayList<>();
            for (CompletableFuture<Verdict> verdict : asked) {
                verdicts.add(verdict.get(5, TimeUnit.SECONDS));
            }
            assertEquals(expected, verdicts, "verdicts in the order the requests came, " + gap + " ns apart");
        }
    }

    /** Spins rather than sleeps: a sleep this short lasts as long as the timer slack, not as asked. */
    private static void pause(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    /** All fourteen requests fall into one window when they start early in it. */
    private static void startOfASecond() {
        await().atMost(Duration.ofSeconds(2))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> System.currentTimeMillis() % 1000 < 100);
    }
}
