package io.editlock.socketio;

/**
 * The Engine.IO handshake errors: {@code {"code", "message"}}, as Engine.IO servers answer them (with 400,
 * or 429 for a handshake refused for the node's sake, see {@link HandshakeRefusal}).
 */
enum EngineError {
    UNKNOWN_TRANSPORT(0, "Transport unknown"),
    UNKNOWN_SID(1, "Session ID unknown"),
    BAD_HANDSHAKE_METHOD(2, "Bad handshake method"),
    BAD_REQUEST(3, "Bad request"),
    FORBIDDEN(4, "Forbidden"),
    UNSUPPORTED_PROTOCOL_VERSION(5, "Unsupported protocol version"),
    // Engine.IO servers answer a handshake their allowRequest hook turns down with code 4 and the hook's message.
    TOO_MANY_SESSIONS(4, "Too many sessions"),
    TOO_MANY_SESSIONS_FROM_ADDRESS(4, "Too many sessions from this address");

    private final int code;
    private final String message;

    EngineError(int code, String message) {
        this.code = code;
        this.message = message;
    }

    String body() {
        return "{\"code\":" + code + ",\"message\":\"" + message + "\"}";
    }
}
