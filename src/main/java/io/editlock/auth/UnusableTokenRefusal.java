package io.editlock.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Refuses a REST caller's token that verifies but cannot be used (docs/protocol.md §3), with 401, as at
 * the upgrade ({@link AccessTokens}): one that names nobody (the parser requires {@code sub},
 * {@code smallrye.jwt.required.claims}, but takes a blank one), and one whose {@code exp} has passed
 * (the parser lets it through for as long as the clock skew it allows).
 */
@ApplicationScoped
public class UnusableTokenRefusal implements SecurityIdentityAugmentor {

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.getPrincipal() instanceof JsonWebToken token) {
            if (!Identity.namesUser(token)) {
                return Uni.createFrom().failure(new AuthenticationFailedException("the token's sub is blank"));
            }
            if (!Identity.inForce(token, Instant.now())) {
                return Uni.createFrom().failure(new AuthenticationFailedException("the token has ended"));
            }
        }
        return Uni.createFrom().item(identity);
    }
}
