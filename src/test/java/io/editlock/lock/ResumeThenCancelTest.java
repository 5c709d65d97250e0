package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.redis.LockScripts;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A resume moves grants to the new socket as they were (docs/protocol.md §5): a lock request of the new
 * socket that the server gave up on before the resume, undone only after it, must not take with it the
 * lock the resume brought.
 */
@QuarkusTest
class ResumeThenCancelTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(5);

    @Inject
    ConfiguratorStore store;

    @Inject
    LockScripts scripts;

    @Test
    void undoingTheNewSocketsRequestAfterAResumeKeepsTheResumedLock() {
        long c = Fixtures.configurator(store);
        Resource page = Resource.variables(c);
        Holder before = Fixtures.user("Sara");
        Holder after = Fixtures.otherSocket(before);
        scripts.acquire(page, before, LEASE, 1).await().atMost(WAIT);
        // The new socket asks for the page too (a re-entry); the server gives that request up.
        scripts.acquire(page, after, LEASE, 7).await().atMost(WAIT);

        scripts.moveSocket(c, before.socketId(), after.socketId(), after.nodeId(), LEASE)
                .await()
                .atMost(WAIT);
        scripts.cancelRequest(page, after.socketId(), 7, ReleaseReason.UNLOCK, Duration.ofMinutes(1))
                .await()
                .atMost(WAIT);

        List<Lock> held = scripts.list(c).await().atMost(WAIT);
        assertEquals(1, held.size(), "the resumed lock must stay: " + held);
        assertEquals(Set.of(after.socketId()), held.get(0).keepers().keySet());
    }
}
