package io.editlock.session;

import io.editlock.auth.AccessTokens;
import io.editlock.protocol.CloseReasons;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/**
 * A socket lives no longer than its token (docs/protocol.md §3): at the token's {@code exp} the
 * server closes it with 4401, a drop (§5), so its locks wait out the grace period for a resume with
 * a fresh token. {@code reauth} moves the end to the new token's {@code exp}. The end is a field of
 * the session, and the node's sweep ({@link SocketSweeper}, every {@code editlock.session.sweep-interval})
 * closes what has ended: a timer per socket would cost every idle socket of a node its share.
 */
@ApplicationScoped
public class TokenLifetime {

    private final AccessTokens tokens;
    private final SessionLifecycle lifecycle;

    public TokenLifetime(AccessTokens tokens, SessionLifecycle lifecycle) {
        this.tokens = tokens;
        this.lifecycle = lifecycle;
    }

    /** From the socket's opening: it ends at {@code expiresAt}. */
    public void start(SocketSession session, Instant expiresAt) {
        session.tokenEndsAt(expiresAt.toEpochMilli());
    }

    /**
     * A fresh token for the open socket: it must verify, be the same user's and not have ended.
     *
     * @return the socket's new end; empty when the token is refused (the socket is unchanged)
     */
    public Optional<Instant> renew(SocketSession session, String accessToken) {
        Optional<Instant> renewed = tokens.verify(accessToken)
                .filter(verified ->
                        verified.identity().userId().equals(session.identity().userId()))
                .map(AccessTokens.Verified::expiresAt);
        renewed.ifPresent(expiresAt -> session.tokenEndsAt(expiresAt.toEpochMilli()));
        return renewed;
    }

    /**
     * Closes the socket if its token has ended by {@code nowMillis}.
     *
     * @return whether it did
     */
    boolean endIfExpired(SocketSession session, long nowMillis) {
        if (session.tokenEndsAt() > nowMillis) {
            return false;
        }
        lifecycle.closeByServer(session, CloseReasons.TOKEN_EXPIRED);
        return true;
    }
}
