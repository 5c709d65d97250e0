package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * docs/protocol.md §2, last rule: every decision is atomic. Many users ask at the same moment (one thread
 * each, released together by a start latch) against the real Redis; whatever the interleaving, the
 * grants never conflict.
 */
@QuarkusTest
class ConcurrentAcquireTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    private static ExecutorService pool;

    @BeforeAll
    static void startPool() {
        pool = Executors.newFixedThreadPool(200);
    }

    @AfterAll
    static void stopPool() {
        pool.shutdownNow();
    }

    private record Request(Holder holder, Resource resource) {}

    private record Outcome(Request request, AcquireResult result) {}

    @RepeatedTest(value = 20, name = "round {currentRepetition}/{totalRepetitions}")
    void twoHundredUsersOnOneConfiguratorGetExactlyOneGrant(RepetitionInfo round) throws Exception {
        String r = "round " + round.getCurrentRepetition() + ": ";
        long configurator = Fixtures.configurator(store);
        List<Request> requests = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            requests.add(new Request(Fixtures.user("U" + i), Resource.configurator(configurator)));
        }

        List<Outcome> outcomes = race(requests);

        List<Outcome> granted = outcomes.stream()
                .filter(o -> o.result() instanceof AcquireResult.Granted)
                .toList();
        assertEquals(
                1,
                granted.size(),
                r + "exactly one of 200 concurrent requests must be granted, but these were: "
                        + granted.stream()
                                .map(o -> o.request().holder().userId())
                                .toList());
        String winner = granted.get(0).request().holder().userId();
        for (Outcome outcome : outcomes) {
            if (outcome == granted.get(0)) {
                continue;
            }
            AcquireResult.Refused refused = assertInstanceOf(
                    AcquireResult.Refused.class,
                    outcome.result(),
                    r + outcome.request().holder().userId() + " must be refused, got " + outcome.result());
            assertEquals(
                    winner,
                    refused.blocking().ownerUserId(),
                    r + "a refusal must name the one winner " + winner + ", not "
                            + refused.blocking().ownerUserId());
            assertEquals(
                    Resource.configurator(configurator),
                    refused.blocking().resource(),
                    r + "a refusal must name the configurator lock as the blocker");
        }
        List<Lock> state = locks.locks(configurator).await().atMost(WAIT);
        assertEquals(1, state.size(), r + "the store must hold exactly the winner's lock afterwards, holds " + state);
        assertEquals(winner, state.get(0).ownerUserId(), r + "the stored lock must be the winner's");
    }

    @RepeatedTest(value = 20, name = "round {currentRepetition}/{totalRepetitions}")
    void hundredUsersMixingConfiguratorAndPagesNeverGetConflictingGrants(RepetitionInfo round) throws Exception {
        String r = "round " + round.getCurrentRepetition() + ": ";
        long configurator = Fixtures.configurator(store);
        List<Long> items = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            items.add(Fixtures.item(store, configurator));
        }
        Random random = new Random(round.getCurrentRepetition());
        List<Request> requests = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Resource resource = random.nextInt(5) == 0
                    ? Resource.configurator(configurator)
                    : Resource.itemPage(
                            items.get(random.nextInt(items.size())),
                            Page.values()[random.nextInt(Page.values().length)]);
            requests.add(new Request(Fixtures.user("U" + i), resource));
        }

        List<Outcome> outcomes = race(requests);

        List<Lock> grants = new ArrayList<>();
        for (Outcome outcome : outcomes) {
            if (outcome.result() instanceof AcquireResult.Granted granted) {
                assertFalse(granted.reentry(), r + "a first request of a new user cannot be a re-entry: " + granted);
                grants.add(granted.lock());
            } else if (!(outcome.result() instanceof AcquireResult.Refused)) {
                fail(r + outcome.request() + " must be granted or refused, got " + outcome.result());
            }
        }
        assertFalse(grants.isEmpty(), r + "someone must get a lock");
        assertNoConflicts(r + "the grants handed out: ", grants);

        // Every refusal names a lock that was really handed out in this round and really blocks it.
        for (Outcome outcome : outcomes) {
            if (outcome.result() instanceof AcquireResult.Refused refused) {
                Lock blocking = refused.blocking();
                assertTrue(
                        grants.stream()
                                .anyMatch(g -> g.ownerUserId().equals(blocking.ownerUserId())
                                        && g.resource().equals(blocking.resource())),
                        r + outcome.request() + " was refused by " + blocking.resource() + " of "
                                + blocking.ownerUserId() + ", which was never granted");
                assertTrue(
                        conflict(outcome.request().resource().inConfigurator(configurator), blocking.resource()),
                        r + outcome.request().resource() + " was refused by " + blocking.resource()
                                + ", which does not conflict");
            }
        }

        List<Lock> state = locks.locks(configurator).await().atMost(WAIT);
        assertNoConflicts(r + "the stored state: ", state);
        assertEquals(describe(grants), describe(state), r + "the stored state must be exactly the grants handed out");
    }

    /** Runs every request on its own thread, all released at once; returns the outcomes in order. */
    private List<Outcome> race(List<Request> requests) throws Exception {
        CountDownLatch ready = new CountDownLatch(requests.size());
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Outcome>> futures = new ArrayList<>();
        for (Request request : requests) {
            futures.add(pool.submit(() -> {
                ready.countDown();
                start.await();
                return new Outcome(
                        request,
                        locks.acquire(request.resource(), request.holder())
                                .await()
                                .atMost(WAIT));
            }));
        }
        assertTrue(ready.await(30, TimeUnit.SECONDS), "the request threads did not all start");
        start.countDown();
        List<Outcome> outcomes = new ArrayList<>();
        for (Future<Outcome> future : futures) {
            outcomes.add(future.get(60, TimeUnit.SECONDS));
        }
        return outcomes;
    }

    /** docs/protocol.md §2 between locks of different users (every user in these tests has one request). */
    private static void assertNoConflicts(String context, List<Lock> held) {
        for (int i = 0; i < held.size(); i++) {
            for (int j = i + 1; j < held.size(); j++) {
                Lock a = held.get(i);
                Lock b = held.get(j);
                if (!a.ownerUserId().equals(b.ownerUserId()) && conflict(a.resource(), b.resource())) {
                    fail(context + a.ownerUserId() + " holds " + a.resource() + " while " + b.ownerUserId() + " holds "
                            + b.resource() + "; all: " + describe(held));
                }
            }
        }
    }

    private static boolean conflict(Resource a, Resource b) {
        if (a.type() == ResourceType.CONFIGURATOR || b.type() == ResourceType.CONFIGURATOR) {
            return true;
        }
        return a.equals(b);
    }

    private static Map<String, String> describe(List<Lock> held) {
        Map<String, String> byResource = new HashMap<>();
        held.forEach(lock -> byResource.merge(lock.resource().canonical(), lock.ownerUserId(), (x, y) -> x + "+" + y));
        return byResource;
    }
}
