package io.editlock.session;

import io.quarkus.websockets.next.CloseReason;

/**
 * How a socket ended, which decides how long its locks wait for a resume (docs/protocol.md §5).
 * Browsers close with 1001 when a page goes away, and a reload is such a page: its locks must
 * outlive the reload, but not for as long as those of a socket whose network is gone.
 */
public enum SocketEnd {
    /**
     * 1000: the client is done (signed out, left the editor); nothing to wait for. A close frame
     * without a code is one too: a browser's {@code close()} without arguments sends it, and the
     * WebSocket layer reports it as 1000.
     */
    DONE,
    /** 1001: the page went away, perhaps only to load again; kept for the reload grace. */
    PAGE_GONE,
    /** Any other code, no close frame, or a close by the server: kept for the grace period. */
    DROPPED;

    static final int NORMAL_CLOSURE = 1000;
    static final int GOING_AWAY = 1001;

    public static SocketEnd of(CloseReason reason, boolean closedByServer) {
        if (closedByServer || reason == null) {
            return DROPPED;
        }
        return switch (reason.getCode()) {
            case NORMAL_CLOSURE -> DONE;
            case GOING_AWAY -> PAGE_GONE;
            default -> DROPPED;
        };
    }
}
