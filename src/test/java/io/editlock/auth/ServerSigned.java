package io.editlock.auth;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;

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

    /**
     * A valid token for {@code subjectJson}, the {@code sub} exactly as written in the token's JSON: for
     * what a claims builder cannot write, such as an escaped lone surrogate ({@code "\\ud800"}).
     */
    static String signWithRawSubject(String subjectJson) {
        String payload = "{\"iss\":\"editlock\",\"aud\":\"" + AUDIENCE + "\",\"sub\":" + subjectJson
                + ",\"name\":\"Sara\",\"iat\":" + Instant.now().getEpochSecond() + ",\"exp\":"
                + Instant.now().plusSeconds(3600).getEpochSecond() + "}";
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String signed = base64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
                + "." + base64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key());
            rsa.update(signed.getBytes(StandardCharsets.US_ASCII));
            return signed + "." + base64.encodeToString(rsa.sign());
        } catch (GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    static PrivateKey key() {
        return DemoKeysConfigSourceFactory.generatedSigningKey()
                .orElseThrow(() -> new AssertionError("the test profile must generate a demo signing key"));
    }
}
