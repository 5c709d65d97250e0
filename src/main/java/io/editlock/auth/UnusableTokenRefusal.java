package io.editlock.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Refuses a REST caller's token that verifies but cannot be used (docs/protocol.md §3), with 401, as at
 * the upgrade ({@link AccessTokens}): one that names nobody (the parser requires {@code sub},
 * {@code smallrye.jwt.required.claims}, but takes a blank one), and one whose {@code exp} has passed
 * (the parser lets it through for as long as the clock skew it allows), and one issued later than that
 * skew from now (the parser does not look at {@code iat}).
 */
@ApplicationScoped
public class UnusableTokenRefusal implements SecurityIdentityAugmentor {

    private final Duration skew;

    public UnusableTokenRefusal(
            @ConfigProperty(name = "mp.jwt.verify.clock.skew", defaultValue = "60") long skewSeconds) {
        this.skew = Duration.ofSeconds(skewSeconds);
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.getPrincipal() instanceof JsonWebToken token) {
            if (!Identity.namesUser(token)) {
                return Uni.createFrom().failure(new AuthenticationFailedException("the token's sub is blank"));
            }
            Instant now = Instant.now();
            if (!Identity.inForce(token, now)) {
                return Uni.createFrom().failure(new AuthenticationFailedException("the token has ended"));
            }
            if (!Identity.issuedBy(token, now.plus(skew))) {
                return Uni.createFrom().failure(new AuthenticationFailedException("the token is issued in the future"));
            }
        }
        return Uni.createFrom().item(identity);
    }
}
