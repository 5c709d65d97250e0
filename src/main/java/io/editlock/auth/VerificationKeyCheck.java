package io.editlock.auth;

import io.editlock.config.StartRefusal;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.jwt.util.ResourceUtils;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The key that verifies tokens is read when the first token comes, not at start: a node whose
 * {@code mp.jwt.verify.publickey.location} names nothing readable (a typo, or the directory a container
 * runtime makes for a bind-mounted file that is missing) would start, report ready, and answer every
 * request 500. It is read at start instead, and a node that finds nothing to read there (a file that is
 * missing, a directory, an empty file) refuses to start, naming the setting. A key served over HTTP(S) (a JWKS endpoint) is left to be fetched when
 * needed: its server may come up after this node.
 */
@ApplicationScoped
public class VerificationKeyCheck {

    private static final String SETTING = "mp.jwt.verify.publickey.location";

    private final Optional<String> location;

    public VerificationKeyCheck(@ConfigProperty(name = SETTING) Optional<String> location) {
        this.location = location;
    }

    void atStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE - 1) StartupEvent started) {
        if (location.isEmpty()
                || location.get().startsWith("http:")
                || location.get().startsWith("https:")) {
            return;
        }
        String problem = problemWith(location.get());
        if (problem != null) {
            throw StartRefusal.told(new IllegalStateException("editlock cannot start: " + SETTING + "="
                    + location.get() + " " + problem
                    + ": every request would fail. Point it at the PEM or JWK file of the key that verifies tokens."));
        }
    }

    /**
     * @return what is wrong with this location, or null when it holds something to read. What it holds is
     *     left to smallrye-jwt, which knows every form and algorithm a key may come in (PEM, JWK, a JWK set,
     *     base64url, a certificate; RSA, EC, EdDSA as {@code mp.jwt.verify.publickey.algorithm} says)
     */
    static String problemWith(String location) {
        // A name without a scheme may also be a classpath resource: only a file named for sure is looked up as one.
        boolean namesAFile = location.startsWith("file:") || location.startsWith("/");
        String path = location.startsWith("file:") ? location.substring("file:".length()) : location;
        if (namesAFile && isPath(path)) {
            Path file = Path.of(path);
            if (Files.isDirectory(file)) {
                return "is a directory";
            }
            if (!Files.exists(file)) {
                return "does not exist";
            }
        }
        String content;
        try {
            content = ResourceUtils.readResource(location);
        } catch (IOException | RuntimeException e) {
            return "cannot be read (" + e.getMessage() + ")";
        }
        if (content == null || content.isBlank()) {
            return "cannot be read, or is empty";
        }
        // A private key in PEM verifies nothing, and smallrye-jwt would only refuse every token with it,
        // silently; the other forms a key may come in are left to it.
        return content.contains("PRIVATE KEY-----") ? "holds a private key, not the public key" : null;
    }

    private static boolean isPath(String path) {
        try {
            Path.of(path);
            return !path.startsWith("//"); // file://host/...: a URL, read as one below
        } catch (InvalidPathException e) {
            return false; // not a path of this file system: read as a resource below
        }
    }
}
