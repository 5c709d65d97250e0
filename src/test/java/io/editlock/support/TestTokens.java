package io.editlock.support;

import io.smallrye.jwt.build.Jwt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Set;

/**
 * An RS256 key pair made for one test run: the public half as a PEM file for the server nodes
 * ({@code mp.jwt.verify.publickey.location}), the private half signs tokens in memory (or, written
 * out on request, a node's demo tokens).
 */
public final class TestTokens {

    /** The audience the server expects by default ({@code mp.jwt.verify.audiences}). */
    public static final String AUDIENCE = "editlock";

    private final KeyPair keys;
    private final Path publicKeyFile;

    private TestTokens(KeyPair keys, Path publicKeyFile) {
        this.keys = keys;
        this.publicKeyFile = publicKeyFile;
    }

    public static TestTokens generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair keys = generator.generateKeyPair();
            String pem = pem("PUBLIC KEY", keys.getPublic().getEncoded());
            Path file = Files.createTempFile("editlock-test-jwt-", ".pem");
            // Read by this JVM's application and by the nodes it starts, all gone when it ends.
            file.toFile().deleteOnExit();
            Files.writeString(file, pem);
            return new TestTokens(keys, file);
        } catch (NoSuchAlgorithmException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public Path publicKeyFile() {
        return publicKeyFile;
    }

    /** The private half as a PEM file, for a node that signs demo tokens ({@code smallrye.jwt.sign.key.location}). */
    public Path privateKeyFile() {
        try {
            Path file = Files.createTempFile("editlock-test-jwt-private-", ".pem");
            file.toFile().deleteOnExit();
            Files.writeString(file, pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
            return file;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** DER bytes as a PEM block of this type ({@code PUBLIC KEY}, {@code PRIVATE KEY}, {@code CERTIFICATE}). */
    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    public String token(String userId, String name, String... roles) {
        return Jwt.issuer("editlock")
                .audience(AUDIENCE)
                .subject(userId)
                .claim("name", name)
                .groups(Set.of(roles))
                .expiresIn(3600)
                .sign(keys.getPrivate());
    }
}
