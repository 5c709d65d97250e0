package io.editlock.waiting;

import static io.editlock.support.Api.as;
import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.session.SessionLifecycle;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §14: one release that unblocks several lines serves them in the order their users
 * asked; a resume adds the old socket's places to those the new socket already has (§5).
 */
@QuarkusTest
class WaitingOrderAndResumeTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    SessionLifecycle lifecycle;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    private WsClient connect(TestUser user) {
        return sockets.connect(base, user);
    }

    private static Map<String, Object> configurator(long c) {
        return Map.of("resource", Map.of("type", "configurator", "configuratorId", c));
    }

    private static Map<String, Object> variables(long c) {
        return Map.of("resource", Map.of("type", "variables", "configuratorId", c));
    }

    private static boolean queuedGrant(JsonNode frame) {
        return frame.path("event").asText().equals("lock-acquired")
                && frame.path("data").path("queued").asBoolean();
    }

    /**
     * Lines that conflict with each other (the configurator's and a page's) are served by who asked
     * first, never by how a table happens to be ordered: tried on a few configurators, whose
     * item ids differ, so that no lucky order can pass it.
     */
    @Test
    void aReleaseServesTheLinesItUnblocksInTheOrderTheyWereJoined() {
        TestUser saraUser = DemoLogin.user("Sara");
        for (int round = 0; round < 4; round++) {
            long c = Api.configurator(saraUser);
            long item = Api.item(saraUser, c, null);
            WsClient sara = connect(saraUser);
            WsClient xena = connect(DemoLogin.user("Xena"));
            WsClient zoe = connect(DemoLogin.user("Zoe"));
            WsClient yann = connect(DemoLogin.user("Yann"));
            sara.request("lock-configurator", Map.of("configuratorId", c));
            assertEquals(
                    "queued",
                    xena.request("wait-for", about(item)).path("event").asText());
            assertEquals(
                    "queued",
                    zoe.request("wait-for", variables(c)).path("event").asText());
            assertEquals(
                    "queued",
                    yann.request("wait-for", configurator(c)).path("event").asText());

            sara.request("unlock-configurator", Map.of("configuratorId", c));

            JsonNode page = xena.awaitEvent(WaitingOrderAndResumeTest::queuedGrant);
            assertEquals(
                    item,
                    page.path("data")
                            .path("lock")
                            .path("resource")
                            .path("itemId")
                            .asLong());
            JsonNode vars = zoe.awaitEvent(WaitingOrderAndResumeTest::queuedGrant);
            assertEquals(
                    "variables",
                    vars.path("data").path("lock").path("resource").path("type").asText());
            // Yann asked last: the page and the variables now block the configurator, and he still waits first in its
            // line.
            assertEquals(
                    1,
                    yann.request("wait-for", configurator(c))
                            .path("data")
                            .path("position")
                            .asInt(),
                    "round " + round);
            sockets.close();
        }
    }

    @Test
    void aResumeAddsTheOldSocketsPlacesToTheNewOnesAndAllEndWithIt() {
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        long c = Api.configurator(saraUser);
        long first = Api.item(saraUser, c, null);
        long second = Api.item(saraUser, c, null);
        WsClient sara = connect(saraUser);
        WsClient watcher = connect(DemoLogin.user("Lea"));
        watcher.request("watch", Map.of("configuratorId", c));
        sara.request("lock-item-subresource", page(first));
        sara.request("lock-item-subresource", page(second));
        WsClient tomBefore = connect(tomUser);
        assertEquals(
                "queued",
                tomBefore.request("wait-for", about(first)).path("event").asText());
        String resumeToken = tomBefore.resumeToken();
        String oldSocket = tomBefore.socketId();
        tomBefore.drop();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lifecycle.droppedSessions().stream()
                        .anyMatch(session -> session.socketId().equals(oldSocket)));

        WsClient tom = connect(tomUser);
        assertEquals(
                "queued", tom.request("wait-for", about(second)).path("event").asText());
        JsonNode resumed = tom.request("resume", Map.of("resumeToken", resumeToken));
        assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
        // The new socket now keeps both places: when it ends, Tom leaves both lines.
        tom.closeCleanly();
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data").path("locks").size() == 2
                && !frame.path("data").has("waiting"));

        sara.request("unlock-item-subresource", page(second));
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data").path("locks").size() == 1);
        as(saraUser)
                .get("/api/configurators/" + c + "/locks")
                .then()
                .statusCode(200)
                .body("size()", is(1));
    }

    /**
     * §13 and §5: a holder who reloads while a take-over request stands gets it again on the socket
     * that resumed the lock, with the same deadline, and can still refuse it there.
     */
    @Test
    void aHolderWhoResumesIsAskedAgainOnTheNewSocketAndCanRefuse() {
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient before = connect(saraUser);
        before.request("lock-item-subresource", page(item));
        WsClient tom = connect(tomUser);
        JsonNode pending = tom.request("request-takeover", about(item));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
        String deadline = before.awaitEvent("takeover-requested")
                .path("data")
                .path("deadline")
                .asText();
        String resumeToken = before.resumeToken();
        before.closeWith(1001); // the page reloads

        WsClient sara = connect(saraUser);
        JsonNode resumed = sara.request("resume", Map.of("resumeToken", resumeToken));
        assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
        JsonNode asked = sara.awaitEvent("takeover-requested").path("data");
        assertEquals(tomUser.id(), asked.path("byUserId").asText(), asked.toString());
        assertEquals(deadline, asked.path("deadline").asText());
        assertEquals(item, asked.path("resource").path("itemId").asLong());

        JsonNode refused = sara.request("answer-takeover", Map.of("resource", Sockets.filters(item), "accept", false));
        assertEquals("takeover-answered", refused.path("event").asText(), refused.toString());
        assertEquals(
                "Sara",
                tom.awaitEvent("takeover-refused")
                        .path("data")
                        .path("byUserName")
                        .asText());
    }
}
