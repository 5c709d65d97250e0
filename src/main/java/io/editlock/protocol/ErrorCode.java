package io.editlock.protocol;

/**
 * The codes a client acts on (docs/protocol.md §4 "Codes"): of {@code lock-failed}, {@code unlock-failed}
 * and {@code error}, and of a refused Socket.IO connect (§12). On the wire each is its own name.
 */
public enum ErrorCode {
    /** Another user holds a conflicting lock. */
    LOCKED,
    NOT_FOUND,
    RATE_LIMITED,
    /** The lock store cannot be reached or did not answer in time. */
    UNAVAILABLE,
    NOT_HELD,
    /** A take-over that somebody else already asked for (§13). */
    BUSY,
    BAD_REQUEST,
    RESUME_FAILED,
    UNAUTHORIZED,
    FORBIDDEN,
    LIMIT_EXCEEDED,
    /** An unexpected failure on the server; the socket stays open. */
    INTERNAL;

    /** The code as a client sees it. */
    public String wire() {
        return name();
    }
}
