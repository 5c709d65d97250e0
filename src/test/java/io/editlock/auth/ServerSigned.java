package io.editlock.auth;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.security.PrivateKey;

/**
 * Tokens signed with the key the test server trusts (generated at start-up, see
 * DemoKeysConfigSourceFactory), with any claims: for what demo login does not hand out (another
 * audience, a token that ends in two seconds).
 */
final class ServerSigned {

    static final String AUDIENCE = "editlock";

    private ServerSigned() {}

    /** A valid token's claims for this user; change what the test is about, then {@link #sign}. */
    static JwtClaimsBuilder claims(String userId, String name) {
        return Jwt.issuer("editlock")
                .audience(AUDIENCE)
                .subject(userId)
                .claim("name", name)
                .expiresIn(3600);
    }

    static String sign(JwtClaimsBuilder claims) {
        return claims.sign(key());
    }

    static PrivateKey key() {
        return DemoKeysConfigSourceFactory.generatedSigningKey()
                .orElseThrow(() -> new AssertionError("the test profile must generate a demo signing key"));
    }
}
