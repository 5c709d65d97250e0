package io.editlock.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.LockService;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * docs/protocol.md §4: an unlock answered UNAVAILABLE may have been carried out all the same, when its
 * script ran in time and only its answer was lost or late. The page is then free and announced so to
 * everybody; the socket that asked must hear it too ({@code lock-lost}, reason {@code unlock}), or its
 * client goes on believing it holds a page that someone else may now take.
 */
@QuarkusTest
class UnlockAnsweredLateTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    PipelinedRedis pipelined;

    @Inject
    RedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    LockService locks;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    /** The pages an unlock names: an item page is named without its configurator, its release with it. */
    enum Locked {
        VARIABLES,
        ITEM_PAGE;

        /** The page's resource, as the client names it, in a configurator with one item. */
        Resource resource(long c, long item) {
            return this == VARIABLES ? Resource.variables(c) : Resource.itemPage(item, Page.FILTERS);
        }

        String suffix() {
            return this == VARIABLES ? "variables" : "item-subresource";
        }

        Map<String, Object> data(long c, long item) {
            return this == VARIABLES ? Map.of("configuratorId", c) : Map.of("itemId", item, "page", "filters");
        }
    }

    /** The release is heard while the answer is on its way, and the answer then does not come. */
    @ParameterizedTest
    @EnumSource(Locked.class)
    void aReleaseHeardBeforeTheUnavailableReplyIsToldAfterIt(Locked page) {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = sockets.connect(base, saraUser);
        WsClient tom = sockets.connect(base, DemoLogin.user("Tom"));
        tom.request("watch", Map.of("configuratorId", c));
        assertEquals(
                "lock-acquired",
                sara.request("lock-" + page.suffix(), page.data(c, item))
                        .path("event")
                        .asText());

        ScriptHooks.install(pipelined).afterNextBlocking("release_lock", () -> {
            tom.awaitEvent(frame -> "lock-released".equals(frame.path("event").asText()), WAIT);
            throw new IllegalStateException("the answer was lost on its way");
        });
        JsonNode reply = sara.request("unlock-" + page.suffix(), page.data(c, item));

        assertUnavailable(reply);
        assertLostOnceAfter(sara, reply, c);
        assertFalse(held(c), "the store released it");
    }

    /** The answer does not come in time, and the release the store made all the same is heard after it. */
    @ParameterizedTest
    @EnumSource(Locked.class)
    void aReleaseHeardAfterTheUnavailableReplyIsToldWhenItIsHeard(Locked page) {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = sockets.connect(base, saraUser);
        assertEquals(
                "lock-acquired",
                sara.request("lock-" + page.suffix(), page.data(c, item))
                        .path("event")
                        .asText());

        unlockNeverAnswered();
        JsonNode reply = sara.request("unlock-" + page.suffix(), page.data(c, item));
        assertUnavailable(reply);
        assertTrue(held(c), "nothing was released yet");

        // The store runs the unlock late, as asked by that socket.
        locks.release(page.resource(c, item), saraUser.id(), sara.socketId())
                .await()
                .atMost(WAIT);

        JsonNode lost = sara.awaitEvent(unasked("lock-lost"), WAIT);
        assertEquals("unlock", lost.path("data").path("reason").asText(), lost.toString());
        assertLostOnceAfter(sara, reply, c);
    }

    /** An unlock answered UNAVAILABLE that the store never carried out leaves the socket holding the page. */
    @Test
    void anUnlockTheStoreNeverRanLeavesTheLockHeldAndUntold() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        WsClient sara = sockets.connect(base, saraUser);
        assertEquals(
                "lock-acquired",
                sara.request("lock-variables", Map.of("configuratorId", c))
                        .path("event")
                        .asText());

        unlockNeverAnswered();
        JsonNode reply = sara.request("unlock-variables", Map.of("configuratorId", c));
        assertUnavailable(reply);

        sara.request("touch", Map.of());
        assertEquals(List.of(), sara.frames(unasked("lock-lost")), "nothing ended: " + sara.received());
        assertTrue(held(c), "the lock stays Sara's");
        assertEquals(
                "lock-released",
                sara.request("unlock-variables", Map.of("configuratorId", c))
                        .path("event")
                        .asText(),
                "and the unlock sent again releases it");
        sara.request("touch", Map.of());
        assertEquals(List.of(), sara.frames(unasked("lock-lost")), "told by its reply: " + sara.received());
    }

    /**
     * The one-configurator rule's release names the socket that asked for the other configurator: its
     * reply tells it ({@code released}), and no {@code lock-lost} comes, whatever an earlier unlock left.
     */
    @Test
    void aReleaseByTheOneConfiguratorRuleIsToldByItsReplyOnly() {
        TestUser saraUser = DemoLogin.user("Sara");
        long first = Api.configurator(saraUser);
        long second = Api.configurator(saraUser);
        WsClient sara = sockets.connect(base, saraUser);
        assertEquals(
                "lock-acquired",
                sara.request("lock-configurator", Map.of("configuratorId", first))
                        .path("event")
                        .asText());
        unlockNeverAnswered();
        assertUnavailable(sara.request("unlock-configurator", Map.of("configuratorId", first)));

        JsonNode switched = sara.request("lock-configurator", Map.of("configuratorId", second));
        assertEquals("lock-acquired", switched.path("event").asText(), switched.toString());
        assertEquals(1, switched.path("data").path("released").size(), switched.toString());
        sara.request("touch", Map.of());
        assertEquals(List.of(), sara.frames(unasked("lock-lost")), "told by the reply: " + sara.received());
    }

    /** The next unlock gets no answer in time, and the store never runs it. */
    private void unlockNeverAnswered() {
        ScriptHooks.install(pipelined)
                .beforeNext(
                        "release_lock", () -> Uni.createFrom().failure(new IllegalStateException("no answer in time")));
    }

    private static void assertUnavailable(JsonNode reply) {
        assertEquals("unlock-failed", reply.path("event").asText(), reply.toString());
        assertEquals("UNAVAILABLE", reply.path("data").path("code").asText(), reply.toString());
    }

    /** After the reply, and before the reply to a request sent after it, one lock-lost (reason unlock). */
    private static void assertLostOnceAfter(WsClient socket, JsonNode reply, long c) {
        socket.request("touch", Map.of());
        List<JsonNode> received = socket.received();
        List<JsonNode> after = received.subList(received.indexOf(reply) + 1, received.size()).stream()
                .filter(unasked("lock-lost"))
                .toList();
        assertEquals(1, after.size(), "lock-lost once after the reply: " + received);
        assertEquals("unlock", after.get(0).path("data").path("reason").asText(), after.toString());
        assertEquals(
                c,
                after.get(0)
                        .path("data")
                        .path("resource")
                        .path("configuratorId")
                        .asLong(),
                "the page with its configurator (docs/protocol.md §4): " + after);
        assertEquals(
                List.of(),
                received.subList(0, received.indexOf(reply)).stream()
                        .filter(unasked("lock-lost"))
                        .toList(),
                "none before the reply, when the client still held the page: " + received);
    }

    private boolean held(long c) {
        return redis.hash(String.class).hgetall(keys.locks(c)).keySet().stream()
                .anyMatch(field -> !field.startsWith("#")); // '#' fields are bookkeeping (locks_lib.lua)
    }

    private static Predicate<JsonNode> unasked(String name) {
        return frame -> name.equals(frame.path("event").asText()) && !frame.has("ref");
    }
}
