package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LockKeys;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.HashSnapshot;
import io.editlock.support.RenewedShortLeases;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §6: a store that goes back in time (a fail-over to a replica a moment behind) can
 * bring back a lock whose release it lost. Its holder's socket still keeps it, so without a check its
 * renewals would keep the page locked for as long as the socket lives, though everybody was told it is
 * free. The configurator's locks hash is put back as it was before the release, with no event, as a
 * replica behind would have it.
 */
@QuarkusTest
@TestProfile(RenewedShortLeases.class)
class ReleaseTheStoreLostTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    /** Judged after a renew interval, left out of the next renewal, and the lease of 4 s runs out. */
    private static final Duration FREED_WITHIN = Duration.ofSeconds(20);
    /** Twice what a lost release takes to run out: a lock that stays that long is kept. */
    private static final Duration STAYS_FOR = Duration.ofSeconds(12);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockKeys keys;

    @Inject
    ReactiveRedisDataSource redis;

    @Test
    void aLockWhoseReleaseTheStoreLostRunsOutWhileTheHoldersOtherLocksStay() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser saraUser = DemoLogin.user("Sara");
        try (WsClient sara = WsClient.connect(base, saraUser.token());
                WsClient tom = WsClient.connect(base, DemoLogin.user("Tom").token())) {
            releaseTheStoreLoses(sara, tom, c, item);
            assertEquals(
                    "lock-failed",
                    event(tom.request("lock-item-subresource", page(item, "attributes"))),
                    "the store has Sara's lock back");

            JsonNode released = tom.awaitEvent(
                    frame -> "lock-released".equals(event(frame)) && isPage(frame, "attributes"), FREED_WITHIN);
            assertEquals("expired", released.path("data").path("reason").asText(), released.toString());
            assertEquals("lock-acquired", event(tom.request("lock-item-subresource", page(item, "attributes"))));
            assertTrue(
                    sara.events("lock-lost").stream().noneMatch(lost -> isPage(lost, "filters")),
                    "the lock Sara was told she holds stays hers: " + sara.received());
            assertTrue(
                    redis.execute(Command.HGET, keys.locks(c), "i:" + item + ":filters")
                            .await()
                            .atMost(WAIT)
                            .toString()
                            .contains(saraUser.id()),
                    "and is still in the store");
        }
    }

    /** A socket that takes the lock back again is told it holds it: its renewals keep it, whatever the first socket's do. */
    @Test
    void aLockBroughtBackAndTakenAgainByAnotherSocketOfTheHolderStays() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser saraUser = DemoLogin.user("Sara");
        try (WsClient sara = WsClient.connect(base, saraUser.token());
                WsClient saraElsewhere = WsClient.connect(base, saraUser.token());
                WsClient tom = WsClient.connect(base, DemoLogin.user("Tom").token())) {
            releaseTheStoreLoses(sara, tom, c, item);
            JsonNode again = saraElsewhere.request("lock-item-subresource", page(item, "attributes"));
            assertEquals("lock-acquired", event(again), again.toString());

            WsClient.stays(
                    () -> tom.events("lock-released").stream().noneMatch(frame -> isPage(frame, "attributes")),
                    STAYS_FOR,
                    "the page stays Sara's: her other socket was told it holds it: " + saraElsewhere.received());
            assertEquals("lock-failed", event(tom.request("lock-item-subresource", page(item, "attributes"))));
        }
    }

    /**
     * Sara holds the item's filters and attributes pages and gives the attributes back, as Tom, who
     * watches, sees; then the store goes back to before the release.
     */
    private void releaseTheStoreLoses(WsClient sara, WsClient tom, long c, long item) {
        tom.request("watch", Map.of("configuratorId", c));
        assertEquals("lock-acquired", event(sara.request("lock-item-subresource", page(item, "filters"))));
        assertEquals("lock-acquired", event(sara.request("lock-item-subresource", page(item, "attributes"))));
        HashSnapshot before = HashSnapshot.of(redis, keys.locks(c));
        assertEquals("lock-released", event(sara.request("unlock-item-subresource", page(item, "attributes"))));
        // Both, in either order (docs/protocol.md §4): a late one would count as a release after the putting back.
        tom.awaitEvent(frame -> "lock-released".equals(event(frame)) && isPage(frame, "attributes"));
        tom.awaitEvent(frame -> lockUpdated(frame, c, 1));
        tom.clear();
        before.putBack();
    }

    private static Map<String, Object> page(long item, String page) {
        return Map.of("itemId", item, "page", page);
    }

    private static String event(JsonNode frame) {
        return frame.path("event").asText();
    }

    private static boolean isPage(JsonNode frame, String page) {
        return page.equals(frame.path("data").path("resource").path("page").asText());
    }

    private static boolean lockUpdated(JsonNode frame, long configuratorId, int locks) {
        return "lock-updated".equals(event(frame))
                && frame.path("data").path("configuratorId").asLong() == configuratorId
                && frame.path("data").path("locks").size() == locks;
    }
}
