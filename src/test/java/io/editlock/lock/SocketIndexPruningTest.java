package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Fixtures;
import io.editlock.support.NoRenewalNoReaper;
import io.editlock.support.ScriptHooks;
import io.editlock.waiting.Takeovers;
import io.editlock.waiting.WaitingLines;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §6: a socket's locks live while it does, renewed through its index of
 * configurators. The renewal takes off the configurators where the socket keeps nothing, so that a
 * socket that once worked in many configurators costs its renewals only where it keeps something.
 * It must never take off one where a lock request of the socket is under way: that grant would be
 * renewed by nobody and run out while its holder works. Renewals here are run by the test (no timer).
 */
@QuarkusTest
@TestProfile(NoRenewalNoReaper.class)
class SocketIndexPruningTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    LockService locks;

    @Inject
    WaitingLines lines;

    @Inject
    Takeovers takeovers;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockKeys keys;

    @Inject
    PipelinedRedis pipelined;

    @Inject
    ReactiveRedisDataSource redis;

    @Test
    void aRenewalKeepsTheSocketListedOnlyWhereItKeepsSomething() {
        Holder tom = Fixtures.user("Tom");
        Holder sara = Fixtures.user("Sara");
        // Tom works through twenty configurators: each lock of one gives the one before back.
        List<Long> visited = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long c = Fixtures.configurator(store);
            visited.add(c);
            assertInstanceOf(
                    AcquireResult.Granted.class,
                    locks.acquire(Resource.configurator(c), tom).await().atMost(WAIT));
        }
        long kept = visited.get(visited.size() - 1);
        // He waits in line for Sara's page in one more, and asks her for a page in another.
        long waited = Fixtures.configurator(store);
        long waitedItem = Fixtures.item(store, waited);
        long asked = Fixtures.configurator(store);
        long askedItem = Fixtures.item(store, asked);
        Resource waitedPage = Resource.itemPage(waitedItem, Page.FILTERS);
        Resource askedPage = Resource.itemPage(askedItem, Page.FILTERS);
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(waitedPage, sara).await().atMost(WAIT));
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(askedPage, sara).await().atMost(WAIT));
        assertInstanceOf(
                WaitingLines.Queued.class,
                lines.waitFor(waitedPage, tom).await().atMost(WAIT));
        assertInstanceOf(
                Takeovers.Pending.class,
                takeovers.request(askedPage, tom, "please").await().atMost(WAIT));
        assertEquals(22, listed(tom).size(), "listed wherever Tom locked, waited or asked");

        assertEquals(1, renew(tom), "the one lock Tom keeps is renewed");

        assertEquals(Set.of(kept, waited, asked), listed(tom), "listed only where Tom keeps a lock, waits or asks");
        assertEquals(1, renew(tom), "and renewed there still");
        // Taken off, and back with the next lock there.
        long again = visited.get(0);
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(Resource.configurator(again), tom).await().atMost(WAIT));
        assertTrue(listed(tom).contains(again), "a new lock lists the configurator again");
        assertEquals(1, renew(tom));
        assertEquals(Set.of(again, waited, asked), listed(tom));

        // The socket's end still reaches all it kept: the lock, the place in line, the request.
        locks.releaseSocket(tom.socketId(), ReleaseReason.DISCONNECT).await().atMost(WAIT);
        assertTrue(locks.locks(again).await().atMost(WAIT).isEmpty(), "Tom's lock is released");
        assertEquals(
                List.of("#seq"),
                redis.hash(String.class, String.class, String.class)
                        .hkeys(keys.waiting(waited).get(2))
                        .await()
                        .atMost(WAIT),
                "nobody waits in line any more: only the count of the order of asking is left");
        assertEquals(
                0L,
                redis.hash(String.class, String.class, String.class)
                        .hlen(keys.waiting(asked).get(3))
                        .await()
                        .atMost(WAIT)
                        .longValue(),
                "Tom's take-over request is gone");
    }

    @Test
    void aLockRequestUnderWayWhileTheRenewalLooksKeepsItsConfiguratorListed() {
        Holder tom = Fixtures.user("Tom");
        long c = lockedAndUnlocked(tom);

        // Tom's next request has begun; the renewal looks before its script runs, and finds nothing.
        ScriptHooks.install(pipelined)
                .beforeNext(
                        "acquire_lock",
                        () -> locks.renewSocket(tom.socketId(), tom.userId(), ToldGrants.NONE)
                                .replaceWithVoid());
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(Resource.configurator(c), tom).await().atMost(WAIT));

        assertEquals(Set.of(c), listed(tom));
        assertEquals(1, renew(tom), "the grant is renewed");
    }

    @Test
    void aLockRequestBegunAfterTheRenewalLookedKeepsItsConfiguratorListed() {
        Holder tom = Fixtures.user("Tom");
        long c = lockedAndUnlocked(tom);

        // The renewal finds nothing; before it acts on that, Tom's next request runs to its end.
        ScriptHooks.install(pipelined)
                .afterNext(
                        "renew_socket_locks",
                        () -> locks.acquire(Resource.configurator(c), tom)
                                .invoke(result -> assertInstanceOf(AcquireResult.Granted.class, result))
                                .replaceWithVoid());
        assertEquals(0, renew(tom));

        assertEquals(Set.of(c), listed(tom));
        assertEquals(1, renew(tom), "the grant is renewed");
    }

    /** The invariant under real concurrency: a socket is listed wherever it keeps a lock. */
    @Test
    void manyRequestsWhileRenewalsRunNeverLeaveALockUnlisted() throws Exception {
        Holder tom = Fixtures.user("Tom");
        List<Long> configurators = new ArrayList<>();
        List<Resource> pages = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            long c = Fixtures.configurator(store);
            configurators.add(c);
            pages.add(Resource.itemPage(Fixtures.item(store, c), Page.FILTERS));
        }
        AtomicBoolean working = new AtomicBoolean(true);
        CompletableFuture<Integer> renewals = CompletableFuture.supplyAsync(() -> {
            int runs = 0;
            while (working.get()) {
                renew(tom);
                runs++;
            }
            return runs;
        });
        // While a lock is held, from its grant to its release, the socket is listed under its configurator.
        List<String> unlisted = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int w = 0; w < pages.size(); w++) {
            Resource page = pages.get(w);
            long c = configurators.get(w);
            workers.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 150; i++) {
                    locks.acquire(page, tom).await().atMost(WAIT);
                    if (!listed(tom).contains(c)) {
                        unlisted.add("configurator " + c + ", lock " + i);
                    }
                    locks.release(page, tom.userId(), tom.socketId()).await().atMost(WAIT);
                }
                locks.acquire(page, tom).await().atMost(WAIT);
            }));
        }
        try {
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get();
        } finally {
            working.set(false);
        }
        assertTrue(renewals.get() > 0);
        assertEquals(List.of(), unlisted, "held locks whose configurator the socket was not listed under");

        Set<Long> listed = listed(tom);
        for (long c : configurators) {
            assertTrue(listed.contains(c), "Tom keeps a lock in configurator " + c + " and is listed there");
        }
        assertEquals(pages.size(), renew(tom), "every lock Tom keeps is renewed");
    }

    /** A configurator the holder locked and unlocked: the socket is listed there, and keeps nothing. */
    private long lockedAndUnlocked(Holder holder) {
        long c = Fixtures.configurator(store);
        locks.acquire(Resource.configurator(c), holder).await().atMost(WAIT);
        locks.release(Resource.configurator(c), holder.userId(), holder.socketId())
                .await()
                .atMost(WAIT);
        return c;
    }

    private int renew(Holder holder) {
        return locks.renewSocket(holder.socketId(), holder.userId(), ToldGrants.NONE)
                .await()
                .atMost(WAIT);
    }

    private Set<Long> listed(Holder holder) {
        Set<Long> ids = new HashSet<>();
        pipelined
                .execute(Command.SMEMBERS, keys.socketConfigurators(holder.socketId()))
                .await()
                .atMost(WAIT)
                .forEach(member -> ids.add(member.toLong()));
        return ids;
    }
}
