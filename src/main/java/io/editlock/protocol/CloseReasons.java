package io.editlock.protocol;

import io.quarkus.websockets.next.CloseReason;

/**
 * Every close the server initiates, with its WebSocket close code (docs/protocol.md §3–§5). Each
 * counts as a drop: the socket's locks wait out the grace period for a resume. A Socket.IO socket
 * ends its Engine.IO session instead, whatever the reason.
 */
public final class CloseReasons {

    /** A frame over the configured maximum (§4). */
    public static final CloseReason MESSAGE_TOO_BIG = new CloseReason(1009, "frame larger than the configured maximum");
    /** Upgrades of one user that raced past the upgrade check: the one beyond the limit (§4). */
    public static final CloseReason TOO_MANY_SOCKETS = new CloseReason(1008, "too many sockets");
    /** A client that does not read what it is sent (§4). */
    public static final CloseReason TOO_SLOW = new CloseReason(1008, "too slow");
    /** The socket's token ran out (§3). */
    public static final CloseReason TOKEN_EXPIRED = new CloseReason(4401, "token expired");
    /** The server's pings went unanswered (§5). */
    public static final CloseReason PING_TIMEOUT = new CloseReason(1001, "ping timeout");
    /** The node stops (a deploy, a scale-down): the client reconnects to another node and resumes (§5). */
    public static final CloseReason NODE_STOPPING = new CloseReason(1001, "node stopping");

    private CloseReasons() {}
}
