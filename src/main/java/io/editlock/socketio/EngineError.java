package io.editlock.socketio;

/** The Engine.IO handshake errors: HTTP 400 with {@code {"code", "message"}}, as Engine.IO servers answer them. */
enum EngineError {
    UNKNOWN_TRANSPORT(0, "Transport unknown"),
    UNKNOWN_SID(1, "Session ID unknown"),
    BAD_HANDSHAKE_METHOD(2, "Bad handshake method"),
    BAD_REQUEST(3, "Bad request"),
    FORBIDDEN(4, "Forbidden"),
    UNSUPPORTED_PROTOCOL_VERSION(5, "Unsupported protocol version");

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
