package io.editlock.auth;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * With demo login on and no verification key configured, generates an RS256 key pair at start-up:
 * the public half becomes {@code mp.jwt.verify.publickey} (so REST and the WebSocket verify demo
 * tokens like any other), the private half stays in memory for {@link DemoTokenIssuer}. The pair is
 * kept for the JVM's life, so dev-mode restarts keep issued tokens valid. No key is ever on disk.
 */
public class DemoKeysConfigSourceFactory implements ConfigSourceFactory {

    /** Survives dev-mode restarts, which load this class again; memory only, never written out. */
    private static final String PRIVATE_KEY_PROPERTY = "io.editlock.demo-login-private-key";

    private static final String PUBLIC_KEY_PROPERTY = "io.editlock.demo-login-public-key";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (!isTrue(context.getValue("editlock.demo-login.enabled"))
                || isSet(context.getValue("mp.jwt.verify.publickey.location"))
                || isSet(context.getValue("mp.jwt.verify.publickey"))) {
            return List.of();
        }
        ensureKeyPair();
        return List.of(new PropertiesConfigSource(
                Map.of("mp.jwt.verify.publickey", System.getProperty(PUBLIC_KEY_PROPERTY)), "editlock-demo-keys", 50));
    }

    /** The generated signing key, if this JVM generated one. */
    static Optional<PrivateKey> generatedSigningKey() {
        String encoded = System.getProperty(PRIVATE_KEY_PROPERTY);
        if (encoded == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(KeyFactory.getInstance("RSA")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(encoded))));
        } catch (NoSuchAlgorithmException | InvalidKeySpecException e) {
            throw new IllegalStateException("cannot read the generated demo key", e);
        }
    }

    private static synchronized void ensureKeyPair() {
        if (System.getProperty(PUBLIC_KEY_PROPERTY) != null) {
            return;
        }
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            System.setProperty(
                    PRIVATE_KEY_PROPERTY,
                    Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded()));
            System.setProperty(
                    PUBLIC_KEY_PROPERTY,
                    Base64.getEncoder().encodeToString(pair.getPublic().getEncoded()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("RSA is not available", e);
        }
    }

    private static boolean isTrue(ConfigValue value) {
        return value != null && "true".equalsIgnoreCase(value.getValue());
    }

    private static boolean isSet(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank();
    }
}
