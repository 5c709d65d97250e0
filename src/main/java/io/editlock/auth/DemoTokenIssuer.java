package io.editlock.auth;

import io.editlock.config.EditlockConfig;
import io.editlock.config.StartRefusal;
import io.quarkus.runtime.Startup;
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
@Startup // demo login with no key to sign with would answer 500 at every sign-in: the start fails instead
@ApplicationScoped
public class DemoTokenIssuer {

    private final EditlockConfig config;
    private final String issuer;
    private final Set<String> audiences;

    public DemoTokenIssuer(
            EditlockConfig config,
            @ConfigProperty(name = "mp.jwt.verify.issuer") String issuer,
            @ConfigProperty(name = "mp.jwt.verify.audiences") Set<String> audiences,
            @ConfigProperty(name = "smallrye.jwt.sign.key.location") Optional<String> signKeyLocation,
            @ConfigProperty(name = "smallrye.jwt.sign.key") Optional<String> signKey) {
        this.config = config;
        this.issuer = issuer;
        this.audiences = Set.copyOf(audiences);
        if (config.demoLogin().enabled()) {
            requireSigningKey(signKeyLocation.isPresent() || signKey.isPresent());
        }
    }

    /** No key was generated when a verification key is configured: then only a configured one can sign. */
    private static void requireSigningKey(boolean configured) {
        if (!configured && DemoKeysConfigSourceFactory.generatedSigningKey().isEmpty()) {
            throw StartRefusal.told(new IllegalStateException("editlock.demo-login.enabled is true and a key that"
                    + " verifies tokens is configured (mp.jwt.verify.publickey.location or mp.jwt.verify.publickey),"
                    + " so demo tokens must be signed with its private half: set smallrye.jwt.sign.key.location to"
                    + " it, or turn demo login off (editlock.demo-login.enabled=false)."));
        }
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
