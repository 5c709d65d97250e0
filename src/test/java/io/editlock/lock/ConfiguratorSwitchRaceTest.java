package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * One configurator per user, under a race: while a user switches from C1 to C2 from one tab, another
 * tab locks C1 again (a re-entry, or a new grant if the switch already released it). Whatever the
 * timing, the user ends up with exactly one configurator lock — never none, never two.
 */
@QuarkusTest
class ConfiguratorSwitchRaceTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    @Test
    void aReentryRacingASwitchNeverLeavesTheUserWithoutAConfigurator() throws Exception {
        for (int round = 1; round <= 20; round++) {
            long c1 = Fixtures.configurator(store);
            long c2 = Fixtures.configurator(store);
            Holder tab1 = Fixtures.user("Sara");
            Holder tab2 = Fixtures.otherSocket(tab1);
            assertInstanceOf(
                    AcquireResult.Granted.class,
                    locks.acquire(Resource.configurator(c1), tab1).await().atMost(WAIT));

            CountDownLatch start = new CountDownLatch(1);
            CompletableFuture<AcquireResult> reentry =
                    CompletableFuture.supplyAsync(() -> acquireAfter(start, c1, tab2));
            CompletableFuture<AcquireResult> switched =
                    CompletableFuture.supplyAsync(() -> acquireAfter(start, c2, tab1));
            start.countDown();
            assertInstanceOf(AcquireResult.Granted.class, reentry.get());
            assertInstanceOf(AcquireResult.Granted.class, switched.get());

            List<Lock> held1 = locks.locks(c1).await().atMost(WAIT);
            List<Lock> held2 = locks.locks(c2).await().atMost(WAIT);
            assertEquals(
                    1,
                    held1.size() + held2.size(),
                    "round " + round + ": the user must hold exactly one configurator, holds C1 " + held1 + " and C2 "
                            + held2);
        }
    }

    private AcquireResult acquireAfter(CountDownLatch start, long configurator, Holder holder) {
        try {
            start.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return locks.acquire(Resource.configurator(configurator), holder)
                .await()
                .atMost(WAIT);
    }
}
