package io.editlock.socketio;

import io.editlock.auth.RequestTokens;
import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;

/**
 * What the request that opened an Engine.IO session said about its client: the Origin, Host and
 * scheme for the Origin check, and a token if it came on the request (docs/protocol.md §3) rather than in the
 * Socket.IO {@code auth} payload.
 */
record Handshake(String origin, String host, String scheme, Optional<String> token) {

    static Handshake of(HttpServerRequest request) {
        return new Handshake(
                request.getHeader("Origin"), request.getHeader("Host"), request.scheme(), RequestTokens.of(request));
    }
}
