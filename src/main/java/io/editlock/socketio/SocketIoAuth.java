package io.editlock.socketio;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.auth.AccessTokens;
import io.editlock.limits.SocketQuota;
import io.editlock.protocol.ErrorCode;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Who connects to {@code /locking} over Socket.IO (docs/protocol.md §12, §3): first the Origin of the
 * request that opened the session (decided at the handshake, see {@link Handshake}), then the token —
 * from the {@code auth} payload {@code {token}}, else from that request's {@code Authorization: Bearer}
 * header or {@code ?access_token=} — then the user's number of sockets on this node.
 */
@ApplicationScoped
class SocketIoAuth {

    private final AccessTokens tokens;
    private final SocketQuota quota;

    SocketIoAuth(AccessTokens tokens, SocketQuota quota) {
        this.tokens = tokens;
        this.quota = quota;
    }

    /** A refused connect: {@code code} is what the client's connect_error carries. */
    static final class Refused extends Exception {
        private final ErrorCode code;

        Refused(ErrorCode code) {
            super(code.wire(), null, false, false);
            this.code = code;
        }

        ErrorCode code() {
            return code;
        }
    }

    /** In the order of the WebSocket upgrade's checks (docs/protocol.md §3): Origin, token, sockets of the user. */
    AccessTokens.Verified identify(Handshake handshake, JsonNode auth) throws Refused {
        if (!handshake.originPermitted()) {
            throw new Refused(ErrorCode.FORBIDDEN);
        }
        String token = tokenOf(handshake, auth);
        AccessTokens.Verified verified =
                token == null ? null : tokens.verify(token).orElse(null);
        if (verified == null) {
            throw new Refused(ErrorCode.UNAUTHORIZED);
        }
        if (!quota.reserve(verified.identity().userId())) {
            throw new Refused(ErrorCode.LIMIT_EXCEEDED);
        }
        return verified;
    }

    /**
     * The socket of a connect that {@link #identify} admitted is open: its reserved place is taken.
     * Both happen in one step on one thread, so the place cannot have been given back in between.
     */
    void opened(String userId) {
        quota.opened(userId);
    }

    private static String tokenOf(Handshake handshake, JsonNode auth) {
        JsonNode token = auth == null ? null : auth.get("token");
        if (token != null && token.isTextual() && !token.textValue().isBlank()) {
            return token.textValue();
        }
        return handshake.token().orElse(null);
    }
}
