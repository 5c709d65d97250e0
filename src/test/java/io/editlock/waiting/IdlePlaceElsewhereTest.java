package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.LockService;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.Resource;
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
 * docs/protocol.md §6 and §14: a user who goes idle leaves every line, and their sockets get
 * {@code not-waiting {resource, reason: "idle"}}. Idleness is the user's, on every node: Tom waits from
 * a socket of another node (its wait taken in the store directly, so this node never recorded the place),
 * and his socket here is told all the same.
 */
@QuarkusTest
class IdlePlaceElsewhereTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource("/")
    URI base;

    @Inject
    WaitingScripts scripts;

    @Inject
    WaitingLines lines;

    @Inject
    LockService locks;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void anIdleUsersSocketsOnANodeThatDidNotRecordThePlaceAreTold() {
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        long c = Api.configurator(saraUser);
        WsClient sara = sockets.connect(base, saraUser);
        WsClient tom = sockets.connect(base, tomUser);
        assertEquals(
                "lock-acquired",
                sara.request("lock-configurator", Map.of("configuratorId", c))
                        .path("event")
                        .asText());

        SocketElsewhere elsewhere = SocketElsewhere.of(tomUser, lines, c);
        elsewhere.waitsFor(scripts, Resource.configurator(c));
        locks.releaseSocket(elsewhere.socketId(), ReleaseReason.IDLE).await().atMost(WAIT);

        JsonNode ended = tom.awaitEvent(frame -> frame.path("event").asText().equals("not-waiting"), WAIT);
        assertEquals("idle", ended.path("data").path("reason").asText(), ended.toString());
        assertEquals(
                c, ended.path("data").path("resource").path("configuratorId").asLong(), ended.toString());
    }
}
