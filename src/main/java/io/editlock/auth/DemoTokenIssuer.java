package io.editlock.auth;

import io.editlock.config.EditlockConfig;
import io.smallrye.jwt.build.Jwt;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.PrivateKey;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Signs demo tokens, for the configured audience (a demo token is a token for this server like any
 * other): with the key generated at start-up, or, when an operator configured keys for a
 * demo installation, with {@code smallrye.jwt.sign.key.location}.
 */
@ApplicationScoped
public class DemoTokenIssuer {

    private final EditlockConfig config;
    private final String issuer;
    private final Set<String> audiences;

    public DemoTokenIssuer(
            EditlockConfig config,
            @ConfigProperty(name = "mp.jwt.verify.issuer") String issuer,
            @ConfigProperty(name = "mp.jwt.verify.audiences") Set<String> audiences) {
        this.config = config;
        this.issuer = issuer;
        this.audiences = Set.copyOf(audiences);
    }

    public String issue(String userId, String name, List<String> roles) {
        var claims = Jwt.issuer(issuer)
                .subject(userId)
                .upn(userId)
                .audience(audiences)
                .claim("name", name)
                .groups(new HashSet<>(roles))
                .expiresIn(config.demoLogin().tokenLifetime());
        Optional<PrivateKey> generated = DemoKeysConfigSourceFactory.generatedSigningKey();
        return generated.isPresent() ? claims.sign(generated.get()) : claims.sign();
    }
}
