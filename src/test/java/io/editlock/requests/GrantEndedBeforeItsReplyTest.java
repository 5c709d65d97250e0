package io.editlock.requests;

import static io.editlock.support.Api.as;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.session.SessionLifecycle;
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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * docs/protocol.md §4: a grant can end (here an admin breaks it) after the store made it and before its
 * reply leaves the node. Its {@code lock-lost} then reaches the requester first, when the client does
 * not yet know it holds the page and can only ignore it. The reply must be followed by that
 * {@code lock-lost} again, or the client believes it holds a page that someone else may take, and its
 * user loses the edits made under it at the next save.
 */
@QuarkusTest
class GrantEndedBeforeItsReplyTest {

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
    SessionLifecycle lifecycle;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    /** The requests whose reply carries a grant. */
    enum Asking {
        LOCK_CONFIGURATOR {
            @Override
            String event() {
                return "lock-configurator";
            }

            @Override
            Map<String, Object> data(long configurator, long item) {
                return Map.of("configuratorId", configurator);
            }

            @Override
            String canonical(long configurator, long item) {
                return "configurator:" + configurator;
            }
        },
        LOCK_ITEM_PAGE {
            @Override
            String event() {
                return "lock-item-subresource";
            }

            @Override
            Map<String, Object> data(long configurator, long item) {
                return Sockets.page(item, "filters");
            }

            @Override
            String canonical(long configurator, long item) {
                return "item:" + item + ":filters";
            }
        },
        WAIT_FOR_A_FREE_PAGE {
            @Override
            String event() {
                return "wait-for";
            }

            @Override
            Map<String, Object> data(long configurator, long item) {
                return Map.of("resource", Sockets.resource(item, "filters"));
            }

            @Override
            String canonical(long configurator, long item) {
                return "item:" + item + ":filters";
            }
        };

        abstract String event();

        abstract Map<String, Object> data(long configurator, long item);

        abstract String canonical(long configurator, long item);
    }

    @ParameterizedTest
    @EnumSource(Asking.class)
    void theEndHeardBeforeTheReplyIsToldAgainAfterIt(Asking asking) {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = sockets.connect(base, saraUser);
        String canonical = asking.canonical(c, item);

        // The store granted the page; before the node reads that answer, an admin breaks the grant and
        // Sara's socket hears of it.
        breakBeforeTheReply("acquire_lock", canonical, sara);
        JsonNode reply = sara.request(asking.event(), asking.data(c, item));
        assertEquals("lock-acquired", reply.path("event").asText(), reply.toString());

        JsonNode lost = assertEndToldAfter(sara, reply);
        assertEquals(
                reply.path("data").path("lock").path("resource"),
                lost.path("data").path("resource"),
                "the page of the grant: " + sara.received());
        assertNoLocks(c);
    }

    /** A re-entry is the grant the client holds: its end heard before the re-entry's reply is told again too. */
    @Test
    void theEndOfAGrantHeldHeardBeforeAReentrysReplyIsToldAgainAfterIt() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        WsClient sara = sockets.connect(base, saraUser);
        assertEquals(
                "lock-acquired",
                sara.request("lock-variables", Map.of("configuratorId", c))
                        .path("event")
                        .asText());

        breakBeforeTheReply("acquire_lock", "configurator:" + c + ":variables", sara);
        JsonNode reply = sara.request("lock-variables", Map.of("configuratorId", c));
        assertEquals("lock-acquired", reply.path("event").asText(), reply.toString());

        assertEndToldAfter(sara, reply);
        assertNoLocks(c);
    }

    /** The locks a resume moves are grants its reply tells of, as a lock request's are. */
    @Test
    void theEndOfAMovedLockHeardBeforeTheResumedReplyIsToldAgainAfterIt() {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        WsClient tab = sockets.connect(base, saraUser);
        assertEquals(
                "lock-acquired",
                tab.request("lock-variables", Map.of("configuratorId", c))
                        .path("event")
                        .asText());
        String socketId = tab.socketId();
        String resumeToken = tab.resumeToken();
        tab.drop();
        await().atMost(WAIT)
                .until(() -> lifecycle.droppedSessions().stream()
                        .anyMatch(session -> session.socketId().equals(socketId)));
        WsClient next = sockets.connect(base, saraUser);

        breakBeforeTheReply("move_socket_locks", "configurator:" + c + ":variables", next);
        JsonNode resumed = next.request("resume", Map.of("resumeToken", resumeToken));
        assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
        assertEquals(1, resumed.path("data").path("locks").size(), "it moved the lock: " + resumed);

        assertEndToldAfter(next, resumed);
        assertNoLocks(c);
    }

    /**
     * The next run of the script hands its answer on only after an admin broke the lock and the socket
     * heard of it: the end is heard before the grant's reply is written.
     */
    private void breakBeforeTheReply(String script, String canonical, WsClient socket) {
        TestUser ada = DemoLogin.user("Ada", "admin");
        ScriptHooks.install(pipelined)
                .afterNext(
                        script,
                        () -> Uni.createFrom().completionStage(CompletableFuture.runAsync(() -> {
                            as(ada).delete("/api/locks/" + canonical).then().statusCode(204);
                            socket.awaitEvent(unasked("lock-lost"), WAIT);
                        })));
    }

    /** After the reply, the client is told once that the grant it told of ended (reason admin). */
    private static JsonNode assertEndToldAfter(WsClient socket, JsonNode reply) {
        // Whatever follows the reply is sent before the reply to a request sent after it.
        socket.request("touch", Map.of());
        List<JsonNode> received = socket.received();
        List<JsonNode> after = received.subList(received.indexOf(reply) + 1, received.size()).stream()
                .filter(unasked("lock-lost"))
                .toList();
        assertEquals(1, after.size(), "lock-lost once after the reply: " + received);
        assertEquals("admin", after.get(0).path("data").path("reason").asText(), after.toString());
        return after.get(0);
    }

    private void assertNoLocks(long c) {
        Set<String> stillLocked = redis.hash(String.class).hgetall(keys.locks(c)).keySet().stream()
                .filter(field -> !field.startsWith("#")) // bookkeeping (locks_lib.lua), not locks
                .collect(Collectors.toSet());
        assertEquals(Set.of(), stillLocked, "the store holds no lock");
    }

    private static Predicate<JsonNode> unasked(String name) {
        return frame -> name.equals(frame.path("event").asText()) && !frame.has("ref");
    }
}
