package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LockKeys;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.NoRenewalNoReaper;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5 and §6: a lock whose node died is released once its lease runs out, at the
 * reaper's next look, which the grant scheduled. A grant in the same configurator, made while a look is due and before the
 * reaper came, must not put that look off until its own lease ends: the lease that ran out in between
 * (renewed by its node before it died) would wait for it. No renewal and no reaper run here by
 * themselves (leases of 2 s); the test renews and reaps by hand.
 */
@QuarkusTest
@TestProfile(NoRenewalNoReaper.class)
class DueLookStaysDueTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration LEASE = NoRenewalNoReaper.LEASE;

    @Inject
    LockService locks;

    @Inject
    LeaseReaper reaper;

    @Inject
    ConfiguratorStore store;

    @Inject
    RedisDataSource redis;

    @Inject
    LockKeys keys;

    @TestHTTPResource("/")
    URI base;

    @Test
    void aGrantWhileALookIsDueDoesNotPutTheLookOff() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        Holder xavier = Fixtures.user("Xavier");
        Holder yusuf = Fixtures.user("Yusuf");

        Lock first =
                granted(locks.acquire(Resource.variables(c), xavier).await().atMost(WAIT));
        Instant firstLook = first.expiresAt();
        // Xavier's node renews once, halfway through his lease, then dies: his lease now ends well
        // after the look his grant scheduled.
        until(firstLook.minus(LEASE.dividedBy(2)));
        assertEquals(
                1,
                locks.renewSocket(xavier.socketId(), xavier.userId(), ToldGrants.NONE)
                        .await()
                        .atMost(WAIT));
        Instant xavierEnds = locks.locks(c).await().atMost(WAIT).get(0).expiresAt();
        assertTrue(
                xavierEnds.isAfter(firstLook.plus(LEASE.dividedBy(3))),
                "the renewal moved the lease end well past the first look");

        until(firstLook.plusMillis(100));
        granted(locks.acquire(Resource.itemPage(item, Page.FILTERS), yusuf)
                .await()
                .atMost(WAIT));

        until(xavierEnds.plusMillis(100));
        int lookedAt = reaper.reapDue().await().atMost(WAIT);

        assertFalse(
                redis.hash(String.class).hgetall(keys.locks(c)).containsKey("var"),
                "Xavier's lease ran out: the reaper's look released it");
        // At least this configurator's: leases other tests left in the same store may be due as well.
        assertTrue(lookedAt >= 1, "the look at the configurator was due once Xavier's lease ended: " + lookedAt);
    }

    /**
     * The node of the granted socket schedules the look at the lease's end itself: the other nodes
     * schedule it only for grants to sockets elsewhere.
     */
    @Test
    void aGrantToASocketOfThisNodeHasTheLookAtItsEndScheduled() {
        long c = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            JsonNode lock = sara.request("lock-configurator", Map.of("configuratorId", c))
                    .path("data")
                    .path("lock");
            long ends = Instant.parse(lock.path("expiresAt").asText()).toEpochMilli();

            Awaitility.await("the look at the lease's end")
                    .atMost(WAIT)
                    .until(() -> (long) redis.sortedSet(String.class)
                                    .zscore(keys.leaseExpiries(), String.valueOf(c))
                                    .orElse(0)
                            == ends);
        }
    }

    private static Lock granted(AcquireResult result) {
        return assertInstanceOf(AcquireResult.Granted.class, result).lock();
    }

    private static void until(Instant moment) {
        Awaitility.await()
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> Instant.now().isAfter(moment));
    }
}
