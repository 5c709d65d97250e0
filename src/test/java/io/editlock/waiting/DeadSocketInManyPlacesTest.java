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
import io.quarkus.redis.datasource.hash.ReactiveHashCommands;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5, §14: a socket of a dead node waits, or asks, in several places of one
 * configurator. The release that serves the first of them forgets the socket in all of them; every
 * other place that release serves must be read as it stands then, not as it stood before: the unlock
 * succeeds (a script that fails halfway is not rolled back), the live waiter behind gets the page, and
 * nothing is ever handed to the dead user.
 *
 * <p>The dead node is staged in the store: its socket's "vouched for until" ({@code e:<socketId>} in
 * the waiters hash, lua/waitlines_lib.lua) is set in the past, as it is two leases after the node's
 * last renewal. No scheduler runs, so the reaper cannot forget the socket before the release does.
 */
@QuarkusTest
@TestProfile(CommandCounter.NoBackgroundWork.class)
class DeadSocketInManyPlacesTest {

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

    /**
     * Dora, whose node died, waits from one socket for the filters and the attributes of one item,
     * both blocked by Anna's configurator lock; Kim waits for the attributes behind her. Anna unlocks.
     */
    @Test
    void aDeadWaiterAtTheHeadOfTwoLinesIsPassedOverInBoth() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        Resource configurator = Resource.configurator(c);
        Resource filters = Resource.itemPage(item, Page.FILTERS).inConfigurator(c);
        Resource attributes = Resource.itemPage(item, Page.ATTRIBUTES).inConfigurator(c);
        Holder anna = Fixtures.user("Anna");
        Holder dora = Fixtures.user("Dora");
        Holder kim = Fixtures.user("Kim");
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(configurator, anna).await().atMost(WAIT));
        assertEquals(1, queued(filters, dora));
        assertEquals(1, queued(attributes, dora));
        assertEquals(2, queued(attributes, kim));
        nodeDied(c, dora);

        assertInstanceOf(
                ReleaseResult.Released.class,
                locks.release(configurator, anna.userId(), anna.socketId())
                        .await()
                        .atMost(WAIT),
                "the unlock must succeed");

        List<Lock> held = locks.locks(c).await().atMost(WAIT);
        assertEquals(1, held.size(), "only the attributes are held, and by one user: " + held);
        assertEquals(attributes, held.get(0).resource(), held.toString());
        assertEquals(kim.userId(), held.get(0).ownerUserId(), "Kim, behind Dora, gets the attributes: " + held);
        assertEquals(List.of(), lines(c), "nobody waits any more");
        assertEquals(
                List.of("#seq"),
                hashes().hkeys(keys.waiting(c).get(2)).await().atMost(WAIT),
                "nothing of Dora's socket is left, only the count of the order of asking");
    }

    /**
     * Dora, whose node died, waits for the configurator (Hana's filters lock blocks it) and then asks Hana
     * to take over the filters; Kim waits for the filters. Hana unlocks them: Dora's place in the
     * configurator's line, asked first, is served first and forgets her socket, which ends her take-over
     * request too. The filters then go to Kim, not to Dora on the strength of the request read before.
     */
    @Test
    void aTakeoverEndedByForgettingItsAskerElsewhereHandsNothingOver() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        Resource configurator = Resource.configurator(c);
        Resource filters = Resource.itemPage(item, Page.FILTERS).inConfigurator(c);
        Holder hana = Fixtures.user("Hana");
        Holder dora = Fixtures.user("Dora");
        Holder kim = Fixtures.user("Kim");
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(filters, hana).await().atMost(WAIT));
        assertEquals(1, queued(configurator, dora));
        assertInstanceOf(
                TakeoverReply.Pending.class,
                waiting.requestTakeover(filters, dora, "", Duration.ofMinutes(5), ++request)
                        .await()
                        .atMost(WAIT));
        assertEquals(1, queued(filters, kim));
        nodeDied(c, dora);

        assertInstanceOf(
                ReleaseResult.Released.class,
                locks.release(filters, hana.userId(), hana.socketId()).await().atMost(WAIT),
                "the unlock must succeed");

        List<Lock> held = locks.locks(c).await().atMost(WAIT);
        assertEquals(1, held.size(), "only the filters are held, and by one user: " + held);
        assertEquals(filters, held.get(0).resource(), held.toString());
        assertEquals(kim.userId(), held.get(0).ownerUserId(), "the filters go to Kim, never to Dora: " + held);
        assertEquals(0L, hashes().hlen(keys.waiting(c).get(3)).await().atMost(WAIT), "Dora's take-over request ended");
        assertEquals(List.of(), lines(c), "nobody waits any more");
    }

    private long queued(Resource resource, Holder holder) {
        WaitReply reply =
                waiting.waitFor(resource, holder, true, ++request).await().atMost(WAIT);
        return assertInstanceOf(WaitReply.Queued.class, reply, reply.toString()).position();
    }

    /** The node of the holder's socket stopped vouching for it: it is past its two leases. */
    private void nodeDied(long c, Holder holder) {
        hashes().hset(keys.waiting(c).get(2), "e:" + holder.socketId(), "1")
                .await()
                .atMost(WAIT);
    }

    /** The resources (fields) that anyone waits for. */
    private List<String> lines(long c) {
        return hashes().hkeys(keys.waiting(c).get(0)).await().atMost(WAIT);
    }

    private ReactiveHashCommands<String, String, String> hashes() {
        return redis.hash(String.class);
    }
}
