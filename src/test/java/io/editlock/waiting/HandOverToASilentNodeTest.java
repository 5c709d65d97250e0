package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.Holder;
import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.lock.Page;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.editlock.redis.CommandCounter;
import io.editlock.redis.LockKeys;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.Command;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §5, §13, §14: a page is handed to a waiter or a take-over asker only while the
 * asker's node has vouched for its socket within the last lease. A node silent for longer has lost its
 * own locks to their leases already: it died (or lost the store), and the page goes past it, or stays
 * with the holder who is there.
 *
 * <p>The node's silence is staged in the store: the socket's "vouched for until" ({@code e:<socketId>}
 * in the waiters hash, lua/waitlines_lib.lua) is two leases after the node's last word. No scheduler
 * runs, so no reaper or sweep forgets the socket first; half a lease left means the node has been
 * silent for a lease and a half, a lease and a half left that it spoke half a lease ago.
 */
@QuarkusTest
@TestProfile(CommandCounter.NoBackgroundWork.class)
class HandOverToASilentNodeTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    LockService locks;

    @Inject
    WaitingScripts waiting;

    @Inject
    ConfiguratorStore store;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    private long request;

    /** Anna unlocks the filters; Dora waits first, from a node last heard of {@code silentFor} ago; Kim waits next. */
    @ParameterizedTest(name = "Dora's node silent for {0} leases: the filters go to {1}")
    @CsvSource({"1.5, Kim", "0.5, Dora"})
    void aReleaseServesTheFirstWaiterWhoseNodeSpokeWithinTheLease(double silentFor, String served) {
        long c = Fixtures.configurator(store);
        Resource filters =
                Resource.itemPage(Fixtures.item(store, c), Page.FILTERS).inConfigurator(c);
        Holder anna = Fixtures.user("Anna");
        Holder dora = Fixtures.user("Dora");
        Holder kim = Fixtures.user("Kim");
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(filters, anna).await().atMost(WAIT));
        assertEquals(1, queued(filters, dora));
        assertEquals(2, queued(filters, kim));
        lastHeardOf(c, dora, silentFor);

        assertInstanceOf(
                ReleaseResult.Released.class,
                locks.release(filters, anna.userId(), anna.socketId()).await().atMost(WAIT));

        List<Lock> held = locks.locks(c).await().atMost(WAIT);
        assertEquals(1, held.size(), held.toString());
        assertEquals(served, held.get(0).ownerUserName(), "the filters went to " + served + ": " + held);
    }

    /** Hana did not answer Dora's take-over request in time; Dora's node was last heard of {@code silentFor} ago. */
    @ParameterizedTest(name = "Dora's node silent for {0} leases: the filters end with {1}")
    @CsvSource({"1.5, Hana", "0.5, Dora"})
    void aTakeOverIsHandedAtItsDeadlineOnlyToAnAskerWhoseNodeSpokeWithinTheLease(double silentFor, String holder) {
        long c = Fixtures.configurator(store);
        Resource filters =
                Resource.itemPage(Fixtures.item(store, c), Page.FILTERS).inConfigurator(c);
        Holder hana = Fixtures.user("Hana");
        Holder dora = Fixtures.user("Dora");
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(filters, hana).await().atMost(WAIT));
        assertInstanceOf(
                TakeoverReply.Pending.class,
                waiting.requestTakeover(filters, dora, "", Duration.ofMillis(1), ++request)
                        .await()
                        .atMost(WAIT));
        lastHeardOf(c, dora, silentFor);

        assertInstanceOf(
                ResolveReply.Resolved.class,
                waiting.resolveTakeover(c, filters.field()).await().atMost(WAIT));

        List<Lock> held = locks.locks(c).await().atMost(WAIT);
        assertEquals(1, held.size(), held.toString());
        assertEquals(holder, held.get(0).ownerUserName(), "the filters are " + holder + "'s: " + held);
        assertEquals(
                0L,
                redis.hash(String.class).hlen(keys.waiting(c).get(3)).await().atMost(WAIT),
                "the request ended");
    }

    private long queued(Resource resource, Holder holder) {
        WaitReply reply =
                waiting.waitFor(resource, holder, true, ++request).await().atMost(WAIT);
        return assertInstanceOf(WaitReply.Queued.class, reply, reply.toString()).position();
    }

    /** Stages the last word of the holder's node: {@code silentFor} leases ago, by the store's clock. */
    private void lastHeardOf(long c, Holder holder, double silentFor) {
        long lease = locks.lease().toMillis();
        long vouchedUntil = storeMillis() + 2 * lease - Math.round(silentFor * lease);
        redis.hash(String.class)
                .hset(keys.waiting(c).get(2), "e:" + holder.socketId(), String.valueOf(vouchedUntil))
                .await()
                .atMost(WAIT);
    }

    private long storeMillis() {
        Response time = redis.execute(Command.TIME).await().atMost(WAIT);
        return time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
    }
}
