package io.editlock.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.redis.AcquireReply;
import io.editlock.lock.redis.LockScripts;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A lease that expired and was granted again is never removed by the old holder's release (the
 * compare-and-delete of release_lock by token, docs/protocol.md §7): neither when another user got it, nor
 * when the same user got it again from another socket.
 */
@QuarkusTest
class ReleaseAfterRegrantTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration SHORT_LEASE = Duration.ofMillis(300);

    @Inject
    LockService locks;

    @Inject
    LockScripts scripts;

    @Inject
    ConfiguratorStore store;

    @Test
    void theOldGrantsReleaseLeavesAnotherUsersNewGrantAlone() {
        long configurator = Fixtures.configurator(store);
        Resource resource = Resource.configurator(configurator);
        Holder sara = Fixtures.user("Sara");
        Holder omar = Fixtures.user("Omar");

        Lock old = shortGrant(resource, sara);
        awaitGone(configurator, old);

        Lock regrant = granted(
                locks.acquire(resource, omar).await().atMost(WAIT), "Omar must get the lock whose lease ran out");
        assertTrue(
                regrant.token() > old.token(),
                "the new grant's token " + regrant.token() + " must be greater than the expired grant's "
                        + old.token());

        ReleaseResult result = locks.releaseGrant(old, ReleaseReason.UNLOCK, sara.socketId())
                .await()
                .atMost(WAIT);
        assertInstanceOf(
                ReleaseResult.NotHeld.class,
                result,
                "releasing the expired grant must find nothing to release, got " + result);
        assertStillHeld(configurator, regrant, "Omar's new grant must survive the release of Sara's old one");
    }

    @Test
    void theOldGrantsReleaseAndDisconnectLeaveTheSameUsersNewGrantAlone() {
        long configurator = Fixtures.configurator(store);
        Resource resource = Resource.configurator(configurator);
        Holder s1 = Fixtures.user("Sara");
        Holder s2 = Fixtures.otherSocket(s1);
        // s1 also keeps the variables (a normal lease), so that s1 is listed in the configurator and
        // its disconnect really runs there.
        Lock variables = granted(
                locks.acquire(Resource.variables(configurator), s1).await().atMost(WAIT), "variables from s1");

        Lock old = shortGrant(resource, s1);
        awaitGone(configurator, old);

        AcquireResult second = locks.acquire(resource, s2).await().atMost(WAIT);
        Lock regrant = granted(second, "Sara must get the lock again from s2");
        assertFalse(
                ((AcquireResult.Granted) second).reentry(),
                "a grant after the lease ran out is a new grant, not a re-entry");
        assertTrue(
                regrant.token() > old.token(),
                "the new grant's token " + regrant.token() + " must be greater than the expired grant's "
                        + old.token());
        assertEquals(List.of(s2.socketId()), List.copyOf(regrant.keepers().keySet()), "only s2 keeps the new grant");

        ReleaseResult result = locks.releaseGrant(old, ReleaseReason.UNLOCK, s1.socketId())
                .await()
                .atMost(WAIT);
        assertInstanceOf(
                ReleaseResult.NotHeld.class, result, "releasing grant 1 by its token must find nothing, got " + result);
        assertStillHeld(configurator, regrant, "grant 2 must survive the release of grant 1 by token");

        List<ReleasedLock> released = locks.releaseSocket(s1.socketId(), ReleaseReason.DISCONNECT)
                .await()
                .atMost(WAIT);
        assertEquals(
                List.of(variables.resource()),
                released.stream().map(r -> r.lock().resource()).toList(),
                "the disconnect of s1 must release only what s1 kept (the variables), not grant 2");
        assertStillHeld(configurator, regrant, "grant 2 (kept by s2) must survive the disconnect of s1");
    }

    /** Grant 1, straight through the script, with a lease that runs out quickly. */
    private Lock shortGrant(Resource resource, Holder holder) {
        var reply = scripts.acquire(resource, holder, SHORT_LEASE).await().atMost(WAIT);
        return assertInstanceOf(AcquireReply.Granted.class, reply, "the short grant must be granted: " + reply)
                .lock();
    }

    private void awaitGone(long configurator, Lock old) {
        await("the short lease of " + old.resource() + " to run out")
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> find(configurator, old).isEmpty());
    }

    private Optional<Lock> find(long configurator, Lock lock) {
        return locks.locks(configurator).await().atMost(WAIT).stream()
                .filter(l -> l.resource().equals(lock.resource()))
                .findFirst();
    }

    private void assertStillHeld(long configurator, Lock grant, String message) {
        Lock now =
                find(configurator, grant).orElseThrow(() -> new AssertionError(message + ": it is no longer listed"));
        assertEquals(grant.ownerUserId(), now.ownerUserId(), message + ": the owner changed");
        assertEquals(grant.token(), now.token(), message + ": the token changed");
        assertEquals(grant.acquiredAt(), now.acquiredAt(), message + ": acquiredAt changed");
    }

    private static Lock granted(AcquireResult result, String message) {
        return assertInstanceOf(AcquireResult.Granted.class, result, message + ", got " + result)
                .lock();
    }
}
