package io.editlock.redis.embedded;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds a redis-server to run: one named by path, one on the PATH, or the binary that the
 * embedded-redis artifact ships in its jar (extracted once into the temp directory).
 */
public final class RedisBinary {

    public static final String AUTO = "auto";
    public static final String BUNDLED = "bundled";

    private RedisBinary() {}

    /** @param choice {@code auto}, {@code bundled}, or a path to a redis-server binary */
    public static Path resolve(String choice) {
        if (BUNDLED.equals(choice)) {
            return bundled();
        }
        if (AUTO.equals(choice)) {
            return onPath().orElseGet(RedisBinary::bundled);
        }
        Path path = Path.of(choice);
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(
                    "editlock.embedded-redis.binary names " + choice + ", which is not an executable");
        }
        return path;
    }

    public static Optional<Path> onPath() {
        String pathVariable = System.getenv().getOrDefault("PATH", "");
        for (String dir : pathVariable.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "redis-server");
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    public static synchronized Path bundled() {
        String resource = bundledResourceName();
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "editlock-" + resource);
        if (Files.isExecutable(target)) {
            return target;
        }
        try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(
                        "the embedded-redis artifact has no " + resource + " on the class path");
            }
            Path partial = Files.createTempFile(target.getParent(), "editlock-redis-", ".partial");
            Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            if (!partial.toFile().setExecutable(true)) {
                throw new IllegalStateException("cannot make " + partial + " executable");
            }
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException e) {
            throw new IllegalStateException("cannot extract the bundled redis-server", e);
        }
    }

    private static String bundledResourceName() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean arm = arch.contains("aarch64") || arch.contains("arm64");
        if (os.contains("linux")) {
            return arm ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64";
        }
        if (os.contains("mac")) {
            return arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
        }
        throw new IllegalStateException(
                "no bundled redis-server for " + os + "/" + arch + "; install redis-server or set quarkus.redis.hosts");
    }
}
