package io.editlock.waiting;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import io.editlock.session.NodeHeartbeat;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.Command;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §5, §13, §14: a page handed to someone who is not asking at that moment (the head of
 * a line on a release, a take-over asker at the deadline) must not end up with a node that died.
 *
 * <p>A take-over past its deadline goes to its asker only while the asker's node's heartbeat goes on;
 * otherwise the request ends and the holder, who is there, keeps the page. A page handed from a line
 * gets a lease that ends where the waiter's node's own leases do, a lease after that node's last word:
 * if the node died since, the page is free again with that node's locks.
 *
 * <p>The node's last word is staged in the store: the socket's "vouched for until" ({@code
 * e:<socketId>} in the waiters hash, lua/waitlines_lib.lua) is two leases after it. No scheduler runs,
 * so no heartbeat, reaper or sweep runs but those the test calls.
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
    TakeoverSweeper sweeper;

    @Inject
    NodeHeartbeat heartbeat;

    @Inject
    ConfiguratorStore store;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    private long request;

    /**
     * Anna unlocks the filters; Dora waits first, from a node last heard of {@code silentFor} leases ago.
     * Her place stands for two leases after it, so she gets the page; its lease ends where her node's own
     * leases do, or a lease from now when those have ended already (a node cut off from the store that
     * long gets the time its renewal needs).
     */
    @ParameterizedTest(name = "Dora's node silent for {0} leases: her lease ends {1}")
    @CsvSource({"0.5, where her node's leases end", "1.5, a lease from now"})
    void aPageHandedFromALineLastsAsLongAsTheLeasesOfTheWaitersNode(double silentFor, String leaseEnds) {
        Holder anna = Fixtures.user("Anna");
        Resource filters = filtersHeldBy(anna);
        long c = filters.configuratorId();
        Holder dora = Fixtures.user("Dora");
        assertEquals(1, queued(filters, dora));
        long lastWord = lastHeardOf(c, dora, silentFor);

        assertInstanceOf(
                ReleaseResult.Released.class,
                locks.release(filters, anna.userId(), anna.socketId()).await().atMost(WAIT));

        List<Lock> held = locks.locks(c).await().atMost(WAIT);
        assertEquals(1, held.size(), held.toString());
        Lock handed = held.get(0);
        assertEquals("Dora", handed.ownerUserName(), held.toString());
        long lease = locks.lease().toMillis();
        long expected = silentFor < 1 ? lastWord + lease : handed.acquiredAt().toEpochMilli() + lease;
        assertEquals(expected, handed.expiresAt().toEpochMilli(), "the lease ends " + leaseEnds + ": " + handed);
    }

    /** Hana did not answer Dora's take-over request in time; the sweep finds it past its deadline. */
    @ParameterizedTest(name = "Dora's node alive: {0}; the filters end with {1}")
    @CsvSource({"false, Hana", "true, Dora"})
    void aTakeOverIsHandedAtItsDeadlineOnlyToAnAskerWhoseNodeLives(boolean alive, String holder) {
        Holder hana = Fixtures.user("Hana");
        Resource filters = filtersHeldBy(hana);
        long c = filters.configuratorId();
        String doraId = "Dora-" + UUID.randomUUID();
        Holder dora = new Holder(doraId, "Dora", "sock-" + UUID.randomUUID(), "node-" + UUID.randomUUID());
        if (alive) {
            redis.value(String.class)
                    .psetex(keys.nodeAlive(dora.nodeId()), 60_000, "1")
                    .await()
                    .atMost(WAIT);
        }
        askedAlreadyDue(filters, dora);

        steadyHeartbeat();
        sweeper.resolveDue().await().atMost(WAIT);

        List<Lock> held = locks.locks(c).await().atMost(WAIT);
        assertEquals(1, held.size(), held.toString());
        assertEquals(holder, held.get(0).ownerUserName(), "the filters are " + holder + "'s: " + held);
        assertEquals(
                0L,
                redis.hash(String.class).hlen(keys.waiting(c).get(3)).await().atMost(WAIT),
                "the request ended");
        assertEquals(
                List.of("#seq"),
                redis.hash(String.class).hkeys(keys.waiting(c).get(2)).await().atMost(WAIT),
                "nothing of Dora's socket is left");
    }

    /**
     * Hana accepts Dora's take-over request, but Dora's node has died (past its two leases): the request
     * ended with her last socket, and the answer is one to nothing, not a yes that hands nothing over.
     */
    @Test
    void anAcceptanceAfterTheAskersNodeDiedIsAnAnswerToNothing() {
        Holder hana = Fixtures.user("Hana");
        Resource filters = filtersHeldBy(hana);
        long c = filters.configuratorId();
        Holder dora = Fixtures.user("Dora");
        assertInstanceOf(
                TakeoverReply.Pending.class,
                waiting.requestTakeover(filters, dora, "", Duration.ofMinutes(5), ++request)
                        .await()
                        .atMost(WAIT));
        lastHeardOf(c, dora, 2.5);

        AnswerReply answer =
                waiting.answerTakeover(filters, hana.userId(), true).await().atMost(WAIT);

        assertFalse(answer.answered(), "no request stands any more: " + answer);
        List<Lock> held = locks.locks(c).await().atMost(WAIT);
        assertEquals(List.of("Hana"), held.stream().map(Lock::ownerUserName).toList(), held.toString());
        assertEquals(
                0L,
                redis.hash(String.class).hlen(keys.waiting(c).get(3)).await().atMost(WAIT),
                "the request ended");
    }

    /**
     * Hana refuses Dora's request after its deadline, before the sweep came: that counts as no answer,
     * and the hand-over is the sweep's, which finds Dora's node dead. Hana keeps the page.
     */
    @Test
    void aRefusalAfterTheDeadlineLeavesTheHandOverToTheSweepsHeartbeatCheck() {
        Holder hana = Fixtures.user("Hana");
        Resource filters = filtersHeldBy(hana);
        long c = filters.configuratorId();
        Holder dora = new Holder(
                "Dora-" + UUID.randomUUID(), "Dora", "sock-" + UUID.randomUUID(), "node-" + UUID.randomUUID());
        askedAlreadyDue(filters, dora);

        AnswerReply answer =
                waiting.answerTakeover(filters, hana.userId(), false).await().atMost(WAIT);
        assertFalse(answer.answered(), "too late to refuse: " + answer);
        assertEquals(List.of("Hana"), owners(c), "a late refusal hands nothing over by itself");

        steadyHeartbeat();
        sweeper.resolveDue().await().atMost(WAIT);

        assertEquals(List.of("Hana"), owners(c), "the sweep found Dora's node dead");
        assertEquals(
                0L,
                redis.hash(String.class).hlen(keys.waiting(c).get(3)).await().atMost(WAIT),
                "the request ended");
    }

    /**
     * Dora asks Hana for the filters from a node that died, and waits in line for the attributes, which
     * Hana holds too. Her request ends at its deadline; her place in the line is not the heartbeat's to
     * end (a node cut off from the store alone is alive): it stays until no node vouches for her socket.
     */
    @Test
    void aDeadAskersPlaceInALineOutlivesTheRequest() {
        Holder hana = Fixtures.user("Hana");
        Resource filters = filtersHeldBy(hana);
        long c = filters.configuratorId();
        Resource attributes =
                Resource.itemPage(filters.itemId(), Page.ATTRIBUTES).inConfigurator(c);
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(attributes, hana).await().atMost(WAIT));
        Holder dora = new Holder(
                "Dora-" + UUID.randomUUID(), "Dora", "sock-" + UUID.randomUUID(), "node-" + UUID.randomUUID());
        assertEquals(1, queued(attributes, dora));
        askedAlreadyDue(filters, dora);

        steadyHeartbeat();
        sweeper.resolveDue().await().atMost(WAIT);

        assertEquals(List.of("Hana", "Hana"), owners(c), "the request ended, nothing handed over");
        assertEquals(
                0L,
                redis.hash(String.class).hlen(keys.waiting(c).get(3)).await().atMost(WAIT),
                "the request ended");
        assertEquals(
                List.of(attributes.field()),
                redis.hash(String.class).hkeys(keys.waiting(c).get(0)).await().atMost(WAIT),
                "Dora still waits for the attributes");
    }

    /**
     * {@code asker} asks for a take-over of {@code page} that is due at once (its deadline passed on the
     * store's clock before this returns), and is in the sweep's schedule.
     */
    private void askedAlreadyDue(Resource page, Holder asker) {
        TakeoverReply.Pending pending = assertInstanceOf(
                TakeoverReply.Pending.class,
                waiting.requestTakeover(page, asker, "", Duration.ofMillis(1), ++request)
                        .await()
                        .atMost(WAIT));
        String member =
                TakeoverSweeper.member(page.configuratorId(), page.field(), pending.deadline(), "test:" + request);
        redis.sortedSet(String.class)
                .zadd(keys.takeoverDeadlines(), pending.deadline(), member)
                .await()
                .atMost(WAIT);
        // A deadline a millisecond on may still be ahead within the same millisecond.
        await().atMost(WAIT).pollInterval(Duration.ofMillis(1)).until(() -> storeMillis() > pending.deadline());
    }

    /** This node judges others by their heartbeats once its own have gone through for a whole TTL. */
    private void steadyHeartbeat() {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    heartbeat.beat();
                    return heartbeat.othersCanBeJudged();
                });
    }

    private List<String> owners(long c) {
        return locks.locks(c).await().atMost(WAIT).stream()
                .map(Lock::ownerUserName)
                .toList();
    }

    /** The filters page of a new item, which {@code holder} holds. */
    private Resource filtersHeldBy(Holder holder) {
        long c = Fixtures.configurator(store);
        Resource filters =
                Resource.itemPage(Fixtures.item(store, c), Page.FILTERS).inConfigurator(c);
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(filters, holder).await().atMost(WAIT));
        return filters;
    }

    private long queued(Resource resource, Holder holder) {
        WaitReply reply =
                waiting.waitFor(resource, holder, true, ++request).await().atMost(WAIT);
        return assertInstanceOf(WaitReply.Queued.class, reply, reply.toString()).position();
    }

    /** Stages the last word of the holder's node, {@code silentFor} leases ago by the store's clock, and returns it. */
    private long lastHeardOf(long c, Holder holder, double silentFor) {
        long lease = locks.lease().toMillis();
        long lastWord = storeMillis() - Math.round(silentFor * lease);
        redis.hash(String.class)
                .hset(keys.waiting(c).get(2), "e:" + holder.socketId(), String.valueOf(lastWord + 2 * lease))
                .await()
                .atMost(WAIT);
        return lastWord;
    }

    private long storeMillis() {
        Response time = redis.execute(Command.TIME).await().atMost(WAIT);
        return time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
    }
}
