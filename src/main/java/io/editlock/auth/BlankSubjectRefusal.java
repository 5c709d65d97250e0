package io.editlock.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * A REST caller's token must name a user in {@code sub} (docs/protocol.md §3). The parser requires the
 * claim ({@code smallrye.jwt.required.claims}) but takes {@code ""} for one; such a token names
 * nobody and is refused with 401, as at the upgrade ({@link AccessTokens}).
 */
@ApplicationScoped
public class BlankSubjectRefusal implements SecurityIdentityAugmentor {

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.getPrincipal() instanceof JsonWebToken token && !Identity.namesUser(token)) {
            return Uni.createFrom().failure(new AuthenticationFailedException("the token's sub is blank"));
        }
        return Uni.createFrom().item(identity);
    }
}
