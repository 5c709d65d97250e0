package io.editlock.session;

import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.UserData;
import io.smallrye.mutiny.Uni;

/**
 * The wire under one client session: a {@code /locking} WebSocket or a Socket.IO socket
 * (docs/protocol.md §12). The session model above it (rooms, leases, resume, limits) does not know
 * which; only how a frame is written and how the connection ends differ.
 */
public interface ClientConnection {

    /** Unique on this node; also the socket id locks are held by. */
    String id();

    /** {@code websocket} or {@code socketio}, for metrics. */
    String transport();

    boolean isOpen();

    /**
     * Whether the transport pings the peer and ends a silent connection by itself (Engine.IO's heartbeat,
     * with the interval and timeout it announced to the client). Otherwise the node's sweep does, with
     * {@code editlock.websocket.ping-timeout}.
     */
    default boolean hasOwnHeartbeat() {
        return false;
    }

    /** Per-connection facts of other features (limits, counters), as on a websockets-next connection. */
    UserData userData();

    /**
     * Sends a server event, given as the {@code /locking} frame {@code {"event", "data"}} (no ref):
     * broadcasts, {@code welcome}. The connection writes it in its own wire format.
     */
    Uni<Void> sendText(String frame);

    /** The server ends the connection; its session then ends as after any close. */
    Uni<Void> close(CloseReason reason);
}
