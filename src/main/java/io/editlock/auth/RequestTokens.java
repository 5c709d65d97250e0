package io.editlock.auth;

import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;

/**
 * The bearer token a request that opens a socket carries (docs/protocol.md §3), read the same way for
 * {@code /locking} and for Socket.IO: the {@code Authorization: Bearer} header, else the
 * {@code bearer.<jwt>} entry of {@code Sec-WebSocket-Protocol} (a browser's WebSocket can set no
 * header, but it can offer subprotocols), else {@code ?access_token=}.
 */
public final class RequestTokens {

    public static final String BEARER_SUBPROTOCOL_PREFIX = "bearer.";
    static final String SEC_WEBSOCKET_PROTOCOL = "Sec-WebSocket-Protocol";
    private static final String BEARER = "bearer ";

    private RequestTokens() {}

    public static Optional<String> of(HttpServerRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return nonBlank(header.substring(BEARER.length()).trim());
        }
        String protocols = request.getHeader(SEC_WEBSOCKET_PROTOCOL);
        if (protocols != null) {
            for (String protocol : protocols.split(",")) {
                String offered = protocol.trim();
                if (offered.startsWith(BEARER_SUBPROTOCOL_PREFIX)) {
                    return nonBlank(offered.substring(BEARER_SUBPROTOCOL_PREFIX.length()));
                }
            }
        }
        return nonBlank(request.getParam("access_token"));
    }

    private static Optional<String> nonBlank(String token) {
        return token == null || token.isBlank() ? Optional.empty() : Optional.of(token);
    }
}
