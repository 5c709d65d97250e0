package io.editlock.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.auth.Identity;
import io.editlock.session.FrameSender;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.editlock.support.RecordingConnection;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §11: after {@code unwatched}, a socket gets no more broadcasts of that configurator.
 * A broadcast takes its room's members before it writes, and a socket may leave the room in between:
 * it is skipped then, in rooms of one socket and of many.
 */
@QuarkusTest
class FanOutAfterUnwatchTest {

    private static final long CONFIGURATOR = 424_242;

    @Inject
    FanOut fanOut;

    @Inject
    SessionRegistry registry;

    @Inject
    FrameSender sender;

    @Test
    void aSocketThatLeftTheRoomAfterTheBroadcastTookItsMembersGetsNothing() {
        for (int roomSize : new int[] {1, 3}) {
            List<RecordingConnection> connections = new CopyOnWriteArrayList<>();
            List<SocketSession> sessions = new CopyOnWriteArrayList<>();
            for (int i = 0; i < roomSize; i++) {
                RecordingConnection connection = new RecordingConnection("fanout-" + roomSize + "-" + i);
                SocketSession session = new SocketSession(
                        connection, new Identity("u" + i, "User " + i, Set.of()), "node", "resume-" + i);
                // A socket gets nothing before its welcome: sent here, and left out of what is compared.
                sender.welcome(session, "{\"event\":\"welcome\"}");
                connection.frames().clear();
                registry.watch(session, CONFIGURATOR);
                connections.add(connection);
                sessions.add(session);
            }
            List<SocketSession> members = List.copyOf(registry.watchers(CONFIGURATOR));
            SocketSession leaving = sessions.get(0);
            registry.unwatch(leaving, CONFIGURATOR);

            fanOut.send(CONFIGURATOR, members, "{\"event\":\"lock-updated\"}", null);

            assertEquals(List.of(), connections.get(0).frames(), "room of " + roomSize + ": the socket that left");
            for (int i = 1; i < roomSize; i++) {
                assertEquals(1, connections.get(i).frames().size(), "room of " + roomSize + ": a socket still there");
            }
            sessions.forEach(session -> registry.unwatch(session, CONFIGURATOR));
        }
    }
}
