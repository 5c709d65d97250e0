package io.editlock.socketio;

import io.editlock.auth.OriginPolicy;
import io.editlock.auth.RequestTokens;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;

/**
 * What a session keeps of the request that opened it, and only that: its Origin (later requests of the
 * session must come from the same page), whether the Origin check permits that page (the CONNECT is
 * refused FORBIDDEN otherwise), and a token if one came on the request (docs/protocol.md §3), for a
 * CONNECT whose {@code auth} payload has none. The handshake takes no token, so whatever a session keeps
 * anyone can make a node keep: values no client sends are refused rather than stored.
 *
 * @param origin the request's {@code Origin}, null when it had none
 */
record Handshake(String origin, boolean originPermitted, Optional<String> token) {

    /**
     * A browser's Origin is a scheme, a host name (at most 253 characters in DNS) and a port; none is near
     * 2 KB.
     */
    static final int MAX_ORIGIN_LENGTH = 2048;

    /**
     * Tokens with many claims run to a few KB; a request line or header over 8 KB is refused by common
     * proxies anyway (nginx's default buffer for one).
     */
    static final int MAX_TOKEN_LENGTH = 8192;

    /**
     * The Origin check is decided here: its inputs (the request's Origin, Host and scheme, the allow-list)
     * are those the CONNECT would read, and the Host need not be kept for it.
     */
    static Handshake of(HttpServerRequest request, OriginPolicy origins) throws HandshakeRefusal.Refused {
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin != null && origin.length() > MAX_ORIGIN_LENGTH) {
            throw new HandshakeRefusal.Refused(HandshakeRefusal.ORIGIN_TOO_LONG);
        }
        Optional<String> token = RequestTokens.of(request);
        if (token.isPresent() && token.get().length() > MAX_TOKEN_LENGTH) {
            throw new HandshakeRefusal.Refused(HandshakeRefusal.TOKEN_TOO_LONG);
        }
        boolean permitted = origins.permits(origin, request.getHeader(HttpHeaders.HOST), request.scheme());
        return new Handshake(origin, permitted, token);
    }
}
