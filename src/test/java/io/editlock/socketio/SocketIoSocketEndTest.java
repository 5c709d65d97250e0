package io.editlock.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5, §12: whatever a client's last packets were, the end of its Socket.IO socket
 * leaves nothing behind, and nothing opens after it. Packets of one polling body are handled back
 * to back, so the requests before a disconnect in the same body are still running when it comes, as
 * with a real {@code emit(…); disconnect()}, and a connect after a close comes to a closed session.
 */
@QuarkusTest
class SocketIoSocketEndTest {

    private static final String DISCONNECT = "41/locking,";

    @Inject
    ConfiguratorStore store;

    @Inject
    SessionRegistry registry;

    @Test
    void aDisconnectRightAfterALockRequestReleasesTheGrantAtOnce() {
        long locked = Fixtures.configurator(store);
        long watched = Fixtures.configurator(store);
        EngineIoClient tom = watcherOf(locked);
        EngineIoClient sara = EngineIoClient.connected("Sara");

        // The lock request is in flight when the disconnect comes; the watch waits behind it.
        sara.post(event("lock-configurator", locked) + "\u001e" + event("watch", watched) + "\u001e" + DISCONNECT);

        String released = released(tom);
        assertTrue(
                released.contains("\"reason\":\"disconnect\""),
                "a clean disconnect must release the grant at once, not leave it to its lease: " + released);
        assertTrue(registry.find(sara.socketId).isEmpty(), "the ended socket must not stay registered");
        assertEquals(List.of(), socketIdsIn(locked, tom), "the ended socket must leave the room of its lock");
        assertEquals(List.of(), socketIdsIn(watched, tom), "a request waiting when the socket ended must not run");
    }

    @Test
    void aDisconnectRightAfterAResumeReleasesTheResumedLocksAtOnce() {
        long configuratorId = Fixtures.configurator(store);
        DemoLogin.TestUser user = DemoLogin.user("Sara");
        EngineIoClient dropped = EngineIoClient.connected(user);
        dropped.post("42/locking,1[\"lock-configurator\",{\"configuratorId\":" + configuratorId + "}]");
        dropped.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43/locking,1")));
        EngineIoClient tom = watcherOf(configuratorId);
        dropped.post("1"); // the engine's close: a drop, its lock is kept for the grace period

        EngineIoClient resumed = EngineIoClient.connected(user);
        resumed.post("42/locking,[\"resume\",{\"resumeToken\":\"" + dropped.resumeToken + "\"}]\u001e" + DISCONNECT);

        String released = released(tom);
        assertTrue(
                released.contains("\"reason\":\"disconnect\""),
                "the lock the resume moved must go with the socket's clean disconnect, not with its lease: "
                        + released);
        assertEquals(List.of(), socketIdsIn(configuratorId, tom), "no ended socket may stay in the room");
    }

    @Test
    void aConnectAfterTheEngineClosedOpensNoSocket() {
        DemoLogin.TestUser user = DemoLogin.user("Sara");
        EngineIoClient client = EngineIoClient.handshake();

        client.post("1\u001e40/locking,{\"token\":\"" + user.token() + "\"}");

        assertEquals(
                List.of(),
                registry.socketsOf(user.id()).stream()
                        .map(SocketSession::socketId)
                        .toList(),
                "a connect for a closed session must not open a socket that counts towards the user's limit");
    }

    private static String event(String name, long configuratorId) {
        return "42/locking,[\"" + name + "\",{\"configuratorId\":" + configuratorId + "}]";
    }

    private static EngineIoClient watcherOf(long configuratorId) {
        EngineIoClient tom = EngineIoClient.connected("Tom");
        tom.post("42/locking,1[\"watch\",{\"configuratorId\":" + configuratorId + "}]");
        tom.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43/locking,1")));
        return tom;
    }

    /** The first lock-released the watcher gets. */
    private static String released(EngineIoClient watcher) {
        return watcher
                .pollUntil(received ->
                        received.stream().anyMatch(packet -> packet.startsWith("42/locking,[\"lock-released\"")))
                .stream()
                .filter(packet -> packet.startsWith("42/locking,[\"lock-released\""))
                .findFirst()
                .orElseThrow();
    }

    /** The sockets in a configurator's room, but the watcher's. */
    private List<String> socketIdsIn(long configuratorId, EngineIoClient watcher) {
        return registry.watchers(configuratorId).stream()
                .map(SocketSession::socketId)
                .filter(socketId -> !socketId.equals(watcher.socketId))
                .toList();
    }
}
