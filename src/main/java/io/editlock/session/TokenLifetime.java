package io.editlock.session;

import io.editlock.auth.AccessTokens;
import io.editlock.protocol.CloseReasons;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A socket lives no longer than its token (docs/protocol.md §3): at the token's {@code exp} the
 * server closes it with 4401, a drop (§5), so its locks wait out the grace period for a resume with
 * a fresh token. {@code reauth} moves the end to the new token's {@code exp}.
 */
@ApplicationScoped
public class TokenLifetime {

    private final AccessTokens tokens;
    private final SessionLifecycle lifecycle;
    private final Vertx vertx;
    /** The pending expiry timer of every open socket of this node. */
    private final Map<String, Long> timers = new ConcurrentHashMap<>();

    public TokenLifetime(AccessTokens tokens, SessionLifecycle lifecycle, Vertx vertx) {
        this.tokens = tokens;
        this.lifecycle = lifecycle;
        this.vertx = vertx;
    }

    /** From the socket's opening: it ends at {@code expiresAt}. */
    public void start(SocketSession session, Instant expiresAt) {
        schedule(session, expiresAt);
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
                .map(AccessTokens.Verified::expiresAt)
                // The parser tolerates a clock skew; a token that already ended here would end the socket at once.
                .filter(expiresAt -> expiresAt.isAfter(Instant.now()));
        renewed.ifPresent(expiresAt -> schedule(session, expiresAt));
        return renewed;
    }

    /** The socket is gone: its timer must not keep it in memory until the token's end. */
    public void stop(SocketSession session) {
        Long timer = timers.remove(session.socketId());
        if (timer != null) {
            vertx.cancelTimer(timer);
        }
    }

    private void schedule(SocketSession session, Instant expiresAt) {
        long delay = Math.max(1, Duration.between(Instant.now(), expiresAt).toMillis());
        long timer = vertx.setTimer(delay, id -> expire(session, id));
        Long previous = timers.put(session.socketId(), timer);
        if (previous != null) {
            vertx.cancelTimer(previous);
        }
    }

    private void expire(SocketSession session, long timer) {
        if (timers.remove(session.socketId(), timer)) {
            lifecycle.closeByServer(session, CloseReasons.TOKEN_EXPIRED);
        }
    }
}
