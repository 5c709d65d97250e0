package io.editlock.auth;

import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Verifies a bearer token the way REST does (signature, issuer, audience, expiry: the
 * {@code mp.jwt.verify.*} settings, {@code iat} not later than the clock skew allows), for the
 * {@code /locking} upgrade and for {@code reauth}.
 */
@ApplicationScoped
public class AccessTokens {

    private final JWTParser parser;
    private final Duration skew;

    public AccessTokens(
            JWTParser parser,
            @ConfigProperty(name = "mp.jwt.verify.clock.skew", defaultValue = "60") long skewSeconds) {
        this.parser = parser;
        this.skew = Duration.ofSeconds(skewSeconds);
    }

    /** Who the token names and when it ends; empty for a bad token. */
    public record Verified(Identity identity, Instant expiresAt) {}

    public Optional<Verified> verify(String token) {
        try {
            JsonWebToken jwt = parser.parse(token);
            Instant now = Instant.now();
            if (!Identity.namesUser(jwt) || !Identity.inForce(jwt, now) || !Identity.issuedBy(jwt, now.plus(skew))) {
                return Optional.empty();
            }
            // MicroProfile JWT makes exp mandatory; the parser refuses a token without it.
            return Optional.of(new Verified(Identity.of(jwt), Instant.ofEpochSecond(jwt.getExpirationTime())));
        } catch (ParseException e) {
            return Optional.empty();
        }
    }
}
