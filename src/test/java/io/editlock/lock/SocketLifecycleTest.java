package io.editlock.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §2 and §5: locks belong to the user, sockets keep them alive. A disconnect releases a
 * lock only when its last socket is gone; resume moves the same grants to the new socket; one
 * configurator per user; a living socket renews its leases.
 */
@QuarkusTest
class SocketLifecycleTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    @Test
    void aLockKeptByTwoSocketsGoesOnlyWithTheLastOne() {
        long configurator = Fixtures.configurator(store);
        Resource resource = Resource.configurator(configurator);
        Holder s1 = Fixtures.user("Sara");
        Holder s2 = Fixtures.otherSocket(s1);
        Lock grant = granted(resource, s1).lock();
        assertTrue(granted(resource, s2).reentry(), "locking again from the second socket must be a re-entry");

        assertEquals(
                List.of(),
                locks.releaseSocket(s1.socketId(), ReleaseReason.DISCONNECT)
                        .await()
                        .atMost(WAIT),
                "the disconnect of s1 must release nothing while s2 still keeps the lock");
        Lock kept = listed(configurator, resource)
                .orElseThrow(() -> new AssertionError("the lock must survive the disconnect of s1"));
        assertEquals(grant.token(), kept.token(), "the lock kept by s2 must be the same grant");
        assertEquals(Set.of(s2.socketId()), kept.keepers().keySet(), "only s2 may keep the lock after s1 is gone");

        List<ReleasedLock> released = locks.releaseSocket(s2.socketId(), ReleaseReason.DISCONNECT)
                .await()
                .atMost(WAIT);
        assertEquals(
                1, released.size(), "the disconnect of the last socket must release the lock, released " + released);
        assertEquals(resource, released.get(0).lock().resource(), "the released lock must be " + resource);
        assertEquals(
                ReleaseReason.DISCONNECT, released.get(0).reason(), "the release must be announced as a disconnect");
        assertEquals(s1.userId(), released.get(0).lock().ownerUserId(), "the released lock must name its owner");
        assertEquals(Optional.empty(), listed(configurator, resource), "the lock must be gone after the last socket");
    }

    @Test
    void aMovedSocketsLocksAreTheSameGrantsAndGoWithTheNewSocket() {
        long c1 = Fixtures.configurator(store);
        long c2 = Fixtures.configurator(store);
        long item = Fixtures.item(store, c2);
        Holder old = Fixtures.user("Sara");
        Holder resumed = Fixtures.otherSocket(old);
        Lock configuratorLock = granted(Resource.configurator(c1), old).lock();
        Lock pageLock = granted(Resource.itemPage(item, Page.FILTERS), old).lock();

        List<Lock> moved = locks.moveSocket(old.socketId(), resumed.socketId(), "node-2")
                .await()
                .atMost(WAIT)
                .locks();

        assertEquals(
                grants(List.of(configuratorLock, pageLock)),
                grants(moved),
                "resume must give back the same grants (resource, token, acquiredAt)");
        for (Lock lock : moved) {
            assertEquals(
                    Map.of(resumed.socketId(), "node-2"),
                    lock.keepers(),
                    lock.resource() + " must be kept by the new socket (on its node) alone after the move");
        }
        assertEquals(
                List.of(),
                locks.releaseSocket(old.socketId(), ReleaseReason.DISCONNECT)
                        .await()
                        .atMost(WAIT),
                "the old socket keeps nothing after the move: its disconnect must release nothing");
        assertTrue(
                listed(c1, configuratorLock.resource()).isPresent(),
                "the configurator lock must survive the old socket's end");
        assertTrue(listed(c2, pageLock.resource()).isPresent(), "the page lock must survive the old socket's end");

        List<ReleasedLock> released = locks.releaseSocket(resumed.socketId(), ReleaseReason.DISCONNECT)
                .await()
                .atMost(WAIT);
        // A released lock is announced in its public view (no token): the grant is resource + acquiredAt.
        assertEquals(
                Map.of(
                        configuratorLock.resource(),
                        configuratorLock.acquiredAt(),
                        pageLock.resource(),
                        pageLock.acquiredAt()),
                released.stream()
                        .collect(Collectors.toMap(
                                r -> r.lock().resource(), r -> r.lock().acquiredAt())),
                "the new socket's disconnect must release the moved grants");
        assertTrue(
                released.stream().allMatch(r -> r.reason() == ReleaseReason.DISCONNECT),
                "released with reason disconnect: " + released);
        assertEquals(List.of(), locks.locks(c1).await().atMost(WAIT), "nothing may be left in the first configurator");
        assertEquals(List.of(), locks.locks(c2).await().atMost(WAIT), "nothing may be left in the second configurator");
    }

    @Test
    void oneConfiguratorPerUser() {
        long c1 = Fixtures.configurator(store);
        long c2 = Fixtures.configurator(store);
        long c3 = Fixtures.configurator(store);
        Holder sara = Fixtures.user("Sara");
        Holder omar = Fixtures.user("Omar");
        granted(Resource.configurator(c1), sara);
        granted(Resource.variables(c1), sara);

        AcquireResult.Granted second = granted(Resource.configurator(c2), sara);
        assertEquals(
                List.of(Resource.configurator(c1)),
                second.released(),
                "locking a second configurator must report the first as released");
        assertEquals(
                Optional.empty(), listed(c1, Resource.configurator(c1)), "the first configurator lock must be gone");
        assertTrue(
                listed(c1, Resource.variables(c1)).isPresent(),
                "the rule takes configurator locks only: the variables stay");

        granted(Resource.configurator(c3), omar);
        AcquireResult third =
                locks.acquire(Resource.configurator(c3), sara).await().atMost(WAIT);
        assertInstanceOf(
                AcquireResult.Refused.class, third, "Omar's configurator must be refused to Sara, got " + third);
        Lock kept = listed(c2, Resource.configurator(c2))
                .orElseThrow(() -> new AssertionError("a refused switch must keep the configurator Sara holds"));
        assertEquals(sara.userId(), kept.ownerUserId(), "the kept configurator lock must still be Sara's");
        assertEquals(second.lock().token(), kept.token(), "the kept configurator lock must be the same grant");
    }

    @Test
    void renewingASocketPushesItsLeasesLater() {
        long configurator = Fixtures.configurator(store);
        Resource resource = Resource.variables(configurator);
        Holder sara = Fixtures.user("Sara");
        Lock grant = granted(resource, sara).lock();

        // Renew until Redis's clock has moved on from the grant, so that a later lease end is visible.
        await("a renewal with a later lease end").atMost(WAIT).untilAsserted(() -> {
            int renewed = locks.renewSocket(sara.socketId(), sara.userId(), ToldGrants.NONE)
                    .await()
                    .atMost(WAIT);
            assertEquals(1, renewed, "the socket keeps one lock, so one lease must be renewed");
            Lock now = listed(configurator, resource)
                    .orElseThrow(() -> new AssertionError("the renewed lock must be listed"));
            assertTrue(
                    now.expiresAt().isAfter(grant.expiresAt()),
                    "after a renewal expiresAt " + now.expiresAt() + " must be later than the grant's "
                            + grant.expiresAt());
            assertEquals(grant.token(), now.token(), "a renewal is not a new grant");
            assertEquals(grant.acquiredAt(), now.acquiredAt(), "a renewal keeps acquiredAt");
        });
    }

    private AcquireResult.Granted granted(Resource resource, Holder holder) {
        AcquireResult result = locks.acquire(resource, holder).await().atMost(WAIT);
        return assertInstanceOf(
                AcquireResult.Granted.class, result, holder.userName() + " must get " + resource + ", got " + result);
    }

    private Optional<Lock> listed(long configurator, Resource resource) {
        Resource wanted = resource.configuratorId() == null ? resource.inConfigurator(configurator) : resource;
        return locks.locks(configurator).await().atMost(WAIT).stream()
                .filter(l -> l.resource().equals(wanted))
                .findFirst();
    }

    /** What identifies a grant: resource -> "token@acquiredAt". */
    private static Map<String, String> grants(List<Lock> held) {
        return held.stream()
                .collect(Collectors.toMap(l -> l.resource().canonical(), l -> l.token() + "@" + l.acquiredAt()));
    }
}
