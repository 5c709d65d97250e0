package io.editlock.socketio;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.auth.Identity;
import io.editlock.auth.OriginPolicy;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Who connects to {@code /locking} over Socket.IO (docs/protocol.md §12, §3): first the Origin of the
 * request that opened the session, then the token — from the {@code auth} payload {@code {token}},
 * else from that request's {@code Authorization: Bearer} header or {@code ?access_token=}.
 */
@ApplicationScoped
class SocketIoAuth {

    static final String FORBIDDEN = "FORBIDDEN";
    static final String UNAUTHORIZED = "UNAUTHORIZED";

    private static final String BEARER = "bearer ";

    private final JWTParser parser;
    private final OriginPolicy origins;

    SocketIoAuth(JWTParser parser, OriginPolicy origins) {
        this.parser = parser;
        this.origins = origins;
    }

    /** A refused connect: {@code code} is what the client's connect_error carries. */
    static final class Refused extends Exception {
        private final String code;

        Refused(String code) {
            super(code, null, false, false);
            this.code = code;
        }

        String code() {
            return code;
        }
    }

    Identity identify(Handshake handshake, JsonNode auth) throws Refused {
        if (!origins.permits(handshake.origin(), handshake.host())) {
            throw new Refused(FORBIDDEN);
        }
        String token = tokenOf(handshake, auth);
        if (token == null) {
            throw new Refused(UNAUTHORIZED);
        }
        try {
            return Identity.of(parser.parse(token));
        } catch (ParseException e) {
            throw new Refused(UNAUTHORIZED);
        }
    }

    private static String tokenOf(Handshake handshake, JsonNode auth) {
        JsonNode token = auth == null ? null : auth.get("token");
        if (token != null && token.isTextual() && !token.textValue().isBlank()) {
            return token.textValue();
        }
        String header = handshake.authorization();
        if (header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            String bearer = header.substring(BEARER.length()).trim();
            return bearer.isEmpty() ? null : bearer;
        }
        String query = handshake.accessToken();
        return query == null || query.isBlank() ? null : query;
    }
}
