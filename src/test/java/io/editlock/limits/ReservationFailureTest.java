package io.editlock.limits;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.ScriptExecutor;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A reservation of a user's window that fails (Redis refuses the script, or the request cannot even
 * be made) fails every request that waited for it, none hangs and none is allowed, and the next
 * request of the same window asks again instead of waiting on the failed one. A request whose caller
 * gave up waiting spends nothing.
 */
@QuarkusTest
class ReservationFailureTest {

    private static final Duration ANSWER = Duration.ofSeconds(5);

    @Inject
    ScriptExecutor scripts;

    @Inject
    RedisDataSource redis;

    @Test
    void requestsWaitingForAReservationRedisRefusesAllFailAndTheNextOneAsksAgain() throws Exception {
        String user = "reserve-" + UUID.randomUUID();
        String counter = "editlock:test:{" + user + "}:rate";
        redis.hash(String.class).hset(counter, "not", "a counter"); // GET fails: WRONGTYPE
        SharedRateLimit limit = new SharedRateLimit(scripts, (id, window) -> counter, 50, System::currentTimeMillis);
        startOfASecond();

        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Verdict>> answers = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                answers.add(pool.submit(() -> limit.allow(user).await().atMost(ANSWER)));
            }
            for (Future<Verdict> answer : answers) {
                ExecutionException failed =
                        assertThrows(ExecutionException.class, answer::get, "a request was allowed");
                assertTrue(
                        String.valueOf(failed.getCause().getMessage()).contains("WRONGTYPE"),
                        "failed for another reason than Redis's refusal (a hang?): " + failed.getCause());
            }
        } finally {
            pool.shutdownNow();
        }

        redis.key().del(counter);
        assertEquals(Verdict.ALLOWED, limit.allow(user).await().atMost(ANSWER));
    }

    @Test
    void aReservationThatCannotBeMadeFailsItsRequestAndTheNextOneAsksAgain() {
        String user = "reserve-" + UUID.randomUUID();
        AtomicBoolean broken = new AtomicBoolean(true);
        SharedRateLimit limit = new SharedRateLimit(
                scripts,
                (id, window) -> {
                    if (broken.getAndSet(false)) {
                        throw new IllegalStateException("no key for this user");
                    }
                    return "editlock:test:{" + id + "}:rate";
                },
                50,
                System::currentTimeMillis);
        startOfASecond();

        assertThrows(
                IllegalStateException.class, () -> limit.allow(user).await().atMost(ANSWER));
        assertEquals(Verdict.ALLOWED, limit.allow(user).await().atMost(ANSWER));
    }

    /**
     * A request given up while it waits for a reservation (its caller timed out) spends none of the
     * user's window: of a limit of five, with blocks of one, three requests of which one is given up
     * leave three for later, not two.
     */
    @Test
    void aRequestGivenUpWhileItWaitsSpendsNothing() throws Exception {
        String user = "reserve-" + UUID.randomUUID();
        CountDownLatch asking = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        SharedRateLimit limit = new SharedRateLimit(
                scripts,
                (id, window) -> {
                    if (first.getAndSet(false)) {
                        asking.countDown();
                        try {
                            answer.await(ANSWER.toMillis(), TimeUnit.MILLISECONDS);
                        } catch (InterruptedException stopped) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return "editlock:test:{" + id + "}:rate:" + window;
                },
                5,
                System::currentTimeMillis);
        startOfASecond();

        ExecutorService asker = Executors.newSingleThreadExecutor();
        try {
            Future<Verdict> firstAsked =
                    asker.submit(() -> limit.allow(user).await().atMost(ANSWER));
            assertTrue(asking.await(ANSWER.toMillis(), TimeUnit.MILLISECONDS), "the first reservation never started");
            CompletableFuture<Verdict> givenUp = limit.allow(user).subscribeAsCompletionStage();
            CompletableFuture<Verdict> third = limit.allow(user).subscribeAsCompletionStage();
            givenUp.cancel(false);
            answer.countDown();

            assertEquals(Verdict.ALLOWED, firstAsked.get(ANSWER.toMillis(), TimeUnit.MILLISECONDS));
            assertEquals(Verdict.ALLOWED, third.get(ANSWER.toMillis(), TimeUnit.MILLISECONDS));
        } finally {
            asker.shutdownNow();
        }
        List<Verdict> later = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            later.add(limit.allow(user).await().atMost(ANSWER));
        }
        assertEquals(
                List.of(Verdict.ALLOWED, Verdict.ALLOWED, Verdict.ALLOWED, Verdict.REFUSED),
                later,
                "the given-up request must have left its share of the window");
    }

    /** Both requests of a test fall in one window: the second finds the first one's allowance. */
    private static void startOfASecond() {
        await().atMost(Duration.ofSeconds(2))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> System.currentTimeMillis() % 1000 < 100);
    }
}
