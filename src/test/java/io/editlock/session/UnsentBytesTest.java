package io.editlock.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.auth.Identity;
import io.editlock.events.FanOut;
import io.editlock.support.RecordingConnection;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: a socket is closed when its unsent frames exceed 1 MiB, counted as they go on
 * the wire: in UTF-8 bytes. A frame in Chinese, with accents or emoji, weighs two to four times its
 * length in characters; counted in characters, a client that does not read could make the node hold
 * three times the limit.
 */
@QuarkusTest
class UnsentBytesTest {

    private static final long CONFIGURATOR = 515_151;
    private static final String FRAME =
            "{\"event\":\"takeover-requested\",\"data\":{\"message\":\"" + "編集".repeat(100) + " café 😀 " + "\"}}";

    @Inject
    FrameSender sender;

    @Inject
    FanOut fanOut;

    @Inject
    SessionRegistry registry;

    @Test
    void aFrameToOneSocketCountsItsUtf8Bytes() {
        SocketSession session = stalled("unsent-one");

        long before = sender.unsentBytes(session);
        sender.send(session, FRAME);

        assertEquals(utf8(FRAME), sender.unsentBytes(session) - before);
    }

    @Test
    void aFrameToManySocketsCountsItsUtf8BytesAtEach() {
        List<SocketSession> sessions = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SocketSession session = stalled("unsent-many-" + i);
            registry.watch(session, CONFIGURATOR);
            sessions.add(session);
        }
        List<Long> before = sessions.stream().map(sender::unsentBytes).toList();

        fanOut.send(CONFIGURATOR, sessions, FRAME, null);

        for (int i = 0; i < sessions.size(); i++) {
            long counted = sender.unsentBytes(sessions.get(i)) - before.get(i);
            assertEquals(utf8(FRAME), counted, "socket " + i);
        }
        sessions.forEach(session -> registry.unwatch(session, CONFIGURATOR));
    }

    private static long utf8(String frame) {
        return frame.getBytes(StandardCharsets.UTF_8).length;
    }

    /** A welcomed socket whose client reads nothing: what is written to it stays unsent. */
    private SocketSession stalled(String id) {
        SocketSession session =
                new SocketSession(RecordingConnection.stalled(id), new Identity(id, "User", Set.of()), "node", id);
        sender.welcome(session, "{\"event\":\"welcome\"}");
        return session;
    }
}
