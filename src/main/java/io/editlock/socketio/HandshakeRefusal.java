package io.editlock.socketio;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

/**
 * Why a handshake opens no session (docs/socketio.md), and how it is answered: Engine.IO's error body,
 * with the status that tells the client what to do. A client refused for a full node tries again after
 * its reconnection delay, as after any failed handshake; 429 rather than 503, since a proxy passes a 503
 * on to another node and, in deploy/nginx.conf, takes this one out of rotation for its other sessions.
 */
enum HandshakeRefusal {
    ORIGIN_TOO_LONG("origin-too-long", 400, EngineError.BAD_REQUEST),
    TOKEN_TOO_LONG("token-too-long", 400, EngineError.BAD_REQUEST),
    UNCONNECTED_SESSIONS("unconnected-sessions", 429, EngineError.TOO_MANY_SESSIONS),
    UNCONNECTED_SESSIONS_PER_ADDRESS(
            "unconnected-sessions-per-address", 429, EngineError.TOO_MANY_SESSIONS_FROM_ADDRESS);

    /** A refused handshake: nothing was opened for it. */
    static final class Refused extends Exception {
        private final HandshakeRefusal refusal;

        Refused(HandshakeRefusal refusal) {
            super(refusal.tag, null, false, false);
            this.refusal = refusal;
        }

        HandshakeRefusal refusal() {
            return refusal;
        }
    }

    private final String tag;
    private final int status;
    private final EngineError error;

    HandshakeRefusal(String tag, int status, EngineError error) {
        this.tag = tag;
        this.status = status;
        this.error = error;
    }

    /** The {@code reason} tag of the refusals' counter. */
    String tag() {
        return tag;
    }

    void answer(HttpServerResponse response) {
        response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        if (status == 429) {
            // A place comes free as soon as another client's CONNECT arrives, at the latest at its connect timeout.
            response.putHeader("Retry-After", "1");
        }
        response.end(error.body());
    }
}
