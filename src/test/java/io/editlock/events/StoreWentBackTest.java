package io.editlock.events;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LockKeys;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.HashSnapshot;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §6: a store that went back in time while the node's connections stayed up, and
 * kept its mark (a fail-over to a replica a moment behind), announces the grants it lost like a store
 * that lost all its data: the holder gets its lock-lost (reason expired), the watchers the page as it
 * stands, and the mark is replaced so that the other nodes catch up too. The configurator's locks
 * hash is put back as a replica behind would have it: as it was before the lost grant, or not there;
 * nothing announces the change, as nothing would.
 */
@QuarkusTest
@TestProfile(StoreDataLostTest.PrivateRedis.class)
class StoreWentBackTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    /** Three renewals at the profile's interval of a second. */
    private static final Duration THREE_RENEWALS = Duration.ofSeconds(3);

    private static final int HOLDERS = 8;

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockKeys keys;

    @Inject
    ReactiveRedisDataSource redis;

    /**
     * Also when someone is granted the page after the store went back: the store's fencing tokens then
     * run past the lost grant's again, and nothing but the grant itself tells it is gone.
     */
    @ParameterizedTest(name = "the page taken again after the loss: {0}")
    @ValueSource(booleans = {false, true})
    void aGrantTheStoreLostIsAnnouncedAndTheLocksItKeptStay(boolean takenAgain) {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        try (WsClient tom = WsClient.connect(base, DemoLogin.user("Tom").token());
                WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient kim = WsClient.connect(base, DemoLogin.user("Kim").token());
                WsClient wu = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            wu.request("watch", Map.of("configuratorId", c));
            tom.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
            HashSnapshot before = HashSnapshot.of(redis, keys.locks(c));
            String mark = mark();
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-variables", Map.of("configuratorId", c))
                            .path("event")
                            .asText());
            wu.awaitEvent(frame -> lockUpdated(frame, c, 2));

            before.putBack();
            if (takenAgain) {
                assertEquals(
                        "lock-acquired",
                        kim.request("lock-variables", Map.of("configuratorId", c))
                                .path("event")
                                .asText());
            }
            wu.clear();

            JsonNode lost = sara.awaitEvent("lock-lost");
            assertEquals("expired", lost.path("data").path("reason").asText(), lost.toString());
            assertEquals(
                    "variables", lost.path("data").path("resource").path("type").asText(), lost.toString());
            JsonNode shown = wu.awaitEvent(frame -> lockUpdated(frame, c, takenAgain ? 2 : 1));
            assertEquals(takenAgain ? Set.of("Tom", "Kim") : Set.of("Tom"), holders(shown), "the page as it stands");
            assertNotEquals(mark, mark(), "the other nodes are told by a new mark");
            WsClient.stays(() -> tom.events("lock-lost").isEmpty(), THREE_RENEWALS, "Tom's lock is still his");
            assertEquals(1, sara.events("lock-lost").size(), sara.received().toString());
            assertEquals(List.of(), kim.events("lock-lost"), "Kim's grant stands");
        }
    }

    @Test
    void aLocksHashTheStoreLostWithItsConfiguratorStillThereIsAnnounced() {
        long c = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            sara.request("lock-configurator", Map.of("configuratorId", c));

            redis.execute(Command.DEL, keys.locks(c)).await().atMost(WAIT);

            JsonNode lost = sara.awaitEvent("lock-lost");
            assertEquals("expired", lost.path("data").path("reason").asText(), lost.toString());
            assertEquals(
                    "configurator",
                    lost.path("data").path("resource").path("type").asText(),
                    lost.toString());
        }
    }

    /** Many renewals that find the loss at once raise one alarm between them, not one each. */
    @Test
    void aLossFoundByManyRenewalsIsCaughtUpOnceForAll() {
        long watched = Fixtures.configurator(store);
        List<Long> configurators = new ArrayList<>();
        List<WsClient> holders = new ArrayList<>();
        try (WsClient wu = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            wu.request("watch", Map.of("configuratorId", watched));
            for (int i = 0; i < HOLDERS; i++) {
                long c = Fixtures.configurator(store);
                WsClient holder =
                        WsClient.connect(base, DemoLogin.user("Holder " + i).token());
                holders.add(holder);
                configurators.add(c);
                holder.request("lock-variables", Map.of("configuratorId", c));
            }

            for (long c : configurators) {
                redis.execute(Command.DEL, keys.locks(c)).await().atMost(WAIT);
            }

            holders.forEach(holder -> holder.awaitEvent("lock-lost"));
            wu.awaitEvent("content-changed");
            WsClient.stays(
                    () -> holders.stream()
                            .allMatch(holder -> holder.events("lock-lost").size() == 1),
                    THREE_RENEWALS,
                    "each holder is told once");
            int catchUps = wu.events("content-changed").size();
            assertTrue(catchUps < HOLDERS, catchUps + " catch-ups for " + HOLDERS + " renewals that found the loss");
        } finally {
            holders.forEach(WsClient::close);
        }
    }

    /** A delete takes the configurator's locks with their announcement: nothing is missing twice. */
    @Test
    void locksGoneWithTheirConfiguratorAreNoLossOfTheStore() {
        TestUser sara = DemoLogin.user("Sara");
        long c = Fixtures.configurator(store, sara.id());
        long other = Fixtures.configurator(store);
        try (WsClient saras = WsClient.connect(base, sara.token());
                WsClient wu = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            wu.request("watch", Map.of("configuratorId", other));
            saras.request("lock-variables", Map.of("configuratorId", c));
            String mark = mark();

            as(sara).delete("/api/configurators/" + c).then().statusCode(204);

            JsonNode lost = saras.awaitEvent("lock-lost");
            assertEquals("deleted", lost.path("data").path("reason").asText(), lost.toString());
            WsClient.stays(
                    () -> mark().equals(mark) && wu.events("content-changed").isEmpty(),
                    THREE_RENEWALS,
                    "no node is told to catch up");
        }
    }

    private static Set<String> holders(JsonNode lockUpdated) {
        Set<String> holders = new HashSet<>();
        lockUpdated
                .path("data")
                .path("locks")
                .forEach(lock -> holders.add(lock.path("ownerUserName").asText()));
        return holders;
    }

    private static boolean lockUpdated(JsonNode frame, long configuratorId, int locks) {
        return frame.path("event").asText().equals("lock-updated")
                && frame.path("data").path("configuratorId").asLong() == configuratorId
                && frame.path("data").path("locks").size() == locks;
    }

    private String mark() {
        Response mark = redis.execute(Command.GET, keys.storeMark()).await().atMost(WAIT);
        assertTrue(mark != null, "the node keeps a mark in the store");
        return mark.toString();
    }
}
