package io.editlock.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.redis.AcquireReply;
import io.editlock.lock.redis.LockRecords;
import io.editlock.lock.redis.LockScripts;
import io.editlock.redis.LockKeys;
import io.editlock.support.Fixtures;
import io.editlock.support.ShortLeases;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.pubsub.ReactivePubSubCommands.ReactiveRedisSubscriber;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5 and §6: a lease nobody renews (its node died) is released by the reapers of the
 * surviving nodes and announced with reason {@code expired}; a lease that is renewed lives on.
 * A short lease (2 s) keeps this quick.
 */
@QuarkusTest
@TestProfile(ShortLeases.class)
class LeaseReaperTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockKeys keys;

    @Inject
    LockScripts lockScripts;

    @Inject
    ReactiveRedisDataSource redis;

    private final Queue<LockChange> changes = new ConcurrentLinkedQueue<>();
    private ReactiveRedisSubscriber subscriber;

    @BeforeEach
    void listen() {
        subscriber = redis.pubsub(String.class)
                .subscribe(keys.lockEventsChannel(), message -> changes.add(LockRecords.change(message)))
                .await()
                .atMost(WAIT);
    }

    @AfterEach
    void stopListening() {
        subscriber.unsubscribe().await().atMost(WAIT);
    }

    @Test
    void anUnrenewedLeaseIsReleasedByTheReaperAndAnnouncedAsExpired() {
        assertEquals(Duration.ofSeconds(2), locks.lease(), "this test needs the 2 s lease of its profile");
        long configurator = Fixtures.configurator(store);
        long item = Fixtures.item(store, configurator);
        Resource resource = Resource.itemPage(item, Page.ATTRIBUTES);
        Holder sara = Fixtures.user("Sara");
        Lock grant = assertInstanceOf(
                        AcquireResult.Granted.class,
                        locks.acquire(resource, sara).await().atMost(WAIT))
                .lock();

        // Nobody renews, nobody touches the configurator again: only a reaper can release it.
        ReleasedLock expired = await("the reaper to announce the expiry of " + grant.resource())
                .atMost(WAIT)
                .until(() -> expiredIn(configurator), released -> !released.isEmpty())
                .get(0);

        assertEquals(
                grant.resource(), expired.lock().resource(), "the announced release must be the lock that ran out");
        assertEquals(sara.userId(), expired.lock().ownerUserId(), "the announced release must name its owner");
        assertEquals(ReleaseReason.EXPIRED, expired.reason(), "a lease that ran out is announced with reason expired");
        assertEquals(1, expiredIn(configurator).size(), "the expiry must be announced once");
        assertEquals(
                0L,
                redis.execute(
                                Command.HEXISTS,
                                keys.locks(configurator),
                                resource.inConfigurator(configurator).field())
                        .await()
                        .atMost(WAIT)
                        .toLong(),
                "the reaper must have deleted the lock from the store");
        assertEquals(
                List.of(), locks.locks(configurator).await().atMost(WAIT), "the expired lock must no longer be listed");
    }

    @Test
    void aRenewedLeaseOutlivesItsTtl() {
        long configurator = Fixtures.configurator(store);
        Resource resource = Resource.configurator(configurator);
        Holder sara = Fixtures.user("Sara");
        Lock grant = assertInstanceOf(
                        AcquireResult.Granted.class,
                        locks.acquire(resource, sara).await().atMost(WAIT))
                .lock();

        // The owning node's job, done here every 500 ms for 3.5 s (well past the 2 s lease): at every
        // renewal the lock must still be there, the same grant.
        await("the renewed lock to stay for 3.5 s")
                .during(Duration.ofMillis(3500))
                .atMost(WAIT)
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    int renewed = locks.renewSocket(sara.socketId(), sara.userId(), ToldGrants.NONE)
                            .await()
                            .atMost(WAIT);
                    return renewed == 1
                            && locks.locks(configurator).await().atMost(WAIT).stream()
                                    .anyMatch(
                                            lock -> lock.resource().equals(resource) && lock.token() == grant.token());
                });

        assertEquals(List.of(), expiredIn(configurator), "a renewed lease must never be announced as expired");
        assertEquals(
                1,
                locks.releaseSocket(sara.socketId(), ReleaseReason.DISCONNECT)
                        .await()
                        .atMost(WAIT)
                        .size(),
                "the lock must still be there to be released at the end");
    }

    /**
     * A grant into a configurator that already has a look scheduled before its lease ends does not
     * schedule one of its own (one script less per lock). It must still be reaped: here Omar's grant
     * comes after Sara's, Sara unlocks, nobody renews Omar's lease, and the look scheduled for
     * Sara's lease moves on to Omar's. Once the last lock is gone, the next grant schedules again.
     */
    @Test
    void aGrantThatRodeOnAnEarlierScheduleIsReapedToo() {
        long configurator = Fixtures.configurator(store);
        Resource first = Resource.itemPage(Fixtures.item(store, configurator), Page.ATTRIBUTES);
        Resource second = Resource.itemPage(Fixtures.item(store, configurator), Page.ATTRIBUTES);
        Holder sara = Fixtures.user("Sara");
        Holder omar = Fixtures.user("Omar");
        Lock saras = assertInstanceOf(
                        AcquireResult.Granted.class,
                        locks.acquire(first, sara).await().atMost(WAIT))
                .lock();
        assertEquals(
                saras.expiresAt().toEpochMilli(),
                scheduledLook(configurator),
                "the first grant schedules a look at its lease end");
        // Omar's lease must end clearly after Sara's, so that his grant finds the look already scheduled before it.
        await("the clock to move past Sara's grant")
                .atMost(WAIT)
                .until(() -> Instant.now().isAfter(saras.acquiredAt().plusMillis(300)));
        Lock omars = assertInstanceOf(
                        AcquireResult.Granted.class,
                        locks.acquire(second, omar).await().atMost(WAIT))
                .lock();
        assertEquals(
                saras.expiresAt().toEpochMilli(),
                scheduledLook(configurator),
                "a grant whose lease ends after the scheduled look rides on it");
        locks.release(first, sara.userId(), sara.socketId()).await().atMost(WAIT);

        ReleasedLock expired = await("the reaper to announce the expiry of Omar's lock")
                .atMost(WAIT)
                .until(() -> expiredIn(configurator), released -> !released.isEmpty())
                .get(0);
        assertEquals(omars.resource(), expired.lock().resource(), "Omar's unrenewed lock must be reaped");
        assertEquals(List.of(), locks.locks(configurator).await().atMost(WAIT), "nothing is left");
        await("the reaper to drop the configurator's entry").atMost(WAIT).until(() -> scheduledLook(configurator) == 0);

        Lock next = assertInstanceOf(
                        AcquireResult.Granted.class,
                        locks.acquire(first, sara).await().atMost(WAIT))
                .lock();
        assertEquals(
                next.expiresAt().toEpochMilli(),
                scheduledLook(configurator),
                "after the last lock was reaped, the next grant schedules a look again");
    }

    /**
     * A node that dies right after a grant, before it scheduled the look at the lease end, leaves that
     * look to the other nodes, which heard the grant announced. Here the grant is made by the script
     * alone, as a gone node's last act: this node must schedule the look, and its reaper release the lock.
     */
    @Test
    void aGrantWhoseNodeDiedBeforeItScheduledTheLookIsReapedToo() {
        long configurator = Fixtures.configurator(store);
        String id = UUID.randomUUID().toString().substring(0, 8);
        Holder lea = new Holder("Lea-" + id, "Lea", "sock-" + id, "node-gone-" + id);
        AcquireReply.Granted granted = assertInstanceOf(
                AcquireReply.Granted.class,
                lockScripts
                        .acquire(Resource.variables(configurator), lea, locks.lease())
                        .await()
                        .atMost(WAIT));
        assertTrue(granted.schedule(), "the first grant in a configurator needs a look of its own");

        await("this node to schedule the look the gone node did not")
                .atMost(WAIT)
                .until(() -> scheduledLook(configurator)
                        == granted.lock().expiresAt().toEpochMilli());
        ReleasedLock expired = await("the reaper to announce the expiry of Lea's lock")
                .atMost(WAIT)
                .until(() -> expiredIn(configurator), released -> !released.isEmpty())
                .get(0);
        assertEquals(granted.lock().resource(), expired.lock().resource(), "Lea's unrenewed lock must be reaped");
    }

    private long scheduledLook(long configurator) {
        var score = redis.execute(Command.ZSCORE, keys.leaseExpiries(), String.valueOf(configurator))
                .await()
                .atMost(WAIT);
        return score == null ? 0 : (long) Double.parseDouble(score.toString());
    }

    private List<ReleasedLock> expiredIn(long configurator) {
        return changes.stream()
                .filter(change -> change.configuratorId() == configurator)
                .flatMap(change -> change.released().stream())
                .filter(released -> released.reason() == ReleaseReason.EXPIRED)
                .toList();
    }
}
