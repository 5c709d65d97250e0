package io.editlock.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §2: re-locking what you hold, from any of your sockets, is the same grant (same token,
 * same acquiredAt), its lease is renewed, and the asking socket joins the sockets that keep it.
 */
@QuarkusTest
class ReentryIsTheSameGrantTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    @Test
    void reentryFromAnotherSocketKeepsTokenAndAcquiredAtAndAddsTheSocket() {
        long configurator = Fixtures.configurator(store);
        long item = Fixtures.item(store, configurator);
        for (Resource resource : List.of(
                Resource.configurator(configurator),
                Resource.variables(configurator),
                Resource.itemPage(item, Page.FILTERS))) {
            Holder tab1 = Fixtures.user("Sara");
            Holder tab2 = Fixtures.otherSocket(tab1);

            AcquireResult.Granted first = granted(resource, tab1);
            assertFalse(first.reentry(), "the first lock of " + resource + " is no re-entry");

            // Re-enter until Redis's clock has moved on, so that a renewed lease is visibly later.
            AcquireResult.Granted[] again = new AcquireResult.Granted[1];
            await("a re-entry of " + resource + " with a later lease end")
                    .atMost(WAIT)
                    .until(() -> {
                        again[0] = granted(resource, tab2);
                        return again[0].lock().expiresAt().isAfter(first.lock().expiresAt());
                    });
            AcquireResult.Granted reentry = again[0];

            assertTrue(reentry.reentry(), "locking " + resource + " again from another socket must be a re-entry");
            assertEquals(
                    first.lock().token(), reentry.lock().token(), "a re-entry of " + resource + " must keep the token");
            assertEquals(
                    first.lock().acquiredAt(),
                    reentry.lock().acquiredAt(),
                    "a re-entry of " + resource + " must keep acquiredAt");
            assertEquals(
                    Set.of(tab1.socketId(), tab2.socketId()),
                    reentry.lock().keepers().keySet(),
                    "after the re-entry both sockets must keep " + resource);
            assertEquals(List.of(), reentry.released(), "a re-entry takes nothing away");

            Lock stored = locks.locks(configurator).await().atMost(WAIT).stream()
                    .filter(lock -> lock.resource().equals(reentry.lock().resource()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(resource + " is no longer listed after the re-entry"));
            assertEquals(
                    first.lock().token(), stored.token(), "the stored grant of " + resource + " must keep its token");
            assertEquals(
                    Set.of(tab1.socketId(), tab2.socketId()),
                    stored.keepers().keySet(),
                    "the stored grant of " + resource + " must be kept by both sockets");

            assertInstanceOf(
                    ReleaseResult.Released.class,
                    locks.release(resource, tab1.userId(), tab1.socketId())
                            .await()
                            .atMost(WAIT),
                    "cleaning up " + resource);
        }
    }

    private AcquireResult.Granted granted(Resource resource, Holder holder) {
        AcquireResult result = locks.acquire(resource, holder).await().atMost(WAIT);
        return assertInstanceOf(
                AcquireResult.Granted.class, result, holder.userName() + " must get " + resource + ", got " + result);
    }
}
