package io.editlock.auth;

import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Verifies a bearer token the way REST does (signature, issuer, audience, expiry: the
 * {@code mp.jwt.verify.*} settings), for the {@code /locking} upgrade and for {@code reauth}.
 */
@ApplicationScoped
public class AccessTokens {

    private final JWTParser parser;

    public AccessTokens(JWTParser parser) {
        this.parser = parser;
    }

    /** Who the token names and when it ends; empty for a bad token. */
    public record Verified(Identity identity, Instant expiresAt) {}

    public Optional<Verified> verify(String token) {
        try {
            JsonWebToken jwt = parser.parse(token);
            if (!Identity.namesUser(jwt) || !Identity.inForce(jwt, Instant.now())) {
                return Optional.empty();
            }
            // MicroProfile JWT makes exp mandatory; the parser refuses a token without it.
            return Optional.of(new Verified(Identity.of(jwt), Instant.ofEpochSecond(jwt.getExpirationTime())));
        } catch (ParseException e) {
            return Optional.empty();
        }
    }
}
