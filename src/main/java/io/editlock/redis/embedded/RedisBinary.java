package io.editlock.redis.embedded;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a redis-server to run: one named by path, one on the PATH (6.2 or later), or the binary that
 * the embedded-redis artifact ships in its jar (extracted once into a directory of the user's own).
 */
public final class RedisBinary {

    public static final String AUTO = "auto";
    public static final String BUNDLED = "bundled";

    private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.(\\d+)");
    private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rwx------");

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

    /** A redis-server on the PATH that editlock can run on (6.2 or later): an older one is passed over. */
    public static Optional<Path> onPath() {
        return onPath(System.getenv().getOrDefault("PATH", ""));
    }

    static Optional<Path> onPath(String pathVariable) {
        for (String dir : pathVariable.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "redis-server");
            if (!dir.isEmpty() && Files.isExecutable(candidate) && recentEnough(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code redis-server --version} says 6.2 or later: ACL channels and the commands editlock uses. */
    static boolean recentEnough(Path binary) {
        try {
            Process process = new ProcessBuilder(binary.toString(), "--version")
                    .redirectErrorStream(true)
                    .start();
            // Its one line fits the pipe: wait first, so that one that does not end cannot hold the start.
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            String said = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Matcher version = VERSION.matcher(said);
            if (!version.find()) {
                return false;
            }
            int major = Integer.parseInt(version.group(1));
            int minor = Integer.parseInt(version.group(2));
            return major > 6 || major == 6 && minor >= 2;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The binary the embedded-redis artifact ships, extracted into a directory only this user may
     * write to: a file someone else put at a shared name in the temp directory is never run.
     */
    public static synchronized Path bundled() {
        String resource = bundledResourceName();
        try {
            Path target = privateDirectory().resolve(resource);
            if (Files.isExecutable(target)) {
                return target;
            }
            try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException(
                            "the embedded-redis artifact has no " + resource + " on the class path");
                }
                Path partial = Files.createTempFile(target.getParent(), "redis-", ".partial");
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                if (!partial.toFile().setExecutable(true, true)) {
                    throw new IllegalStateException("cannot make " + partial + " executable");
                }
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return target;
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot extract the bundled redis-server", e);
        }
    }

    /**
     * {@code <temp>/editlock-<user>}, made with rwx------ and kept while it is this user's own (by uid)
     * and no one else's to write to; else a new private directory for this run, gone when it ends.
     */
    static Path privateDirectory() throws IOException {
        Path temp = Path.of(System.getProperty("java.io.tmpdir"));
        Path dir = temp.resolve("editlock-" + System.getProperty("user.name"));
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PRIVATE));
        } catch (FileAlreadyExistsException alreadyThere) {
            // checked below, whoever made it
        }
        if (!Files.isSymbolicLink(dir)
                && Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                && ownUid(temp).equals(Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS))
                && Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).equals(PRIVATE)) {
            return dir;
        }
        Path ofThisRun = Files.createTempDirectory("editlock-", PosixFilePermissions.asFileAttribute(PRIVATE));
        ofThisRun.toFile().deleteOnExit();
        ofThisRun.resolve(bundledResourceName()).toFile().deleteOnExit(); // deleted first: registered last
        return ofThisRun;
    }

    /** The uid of this process, as the file system records it (a name may map to another, or to none). */
    private static Object ownUid(Path temp) throws IOException {
        Path probe = Files.createTempFile(temp, "editlock-", ".uid");
        try {
            return Files.getAttribute(probe, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        } finally {
            Files.delete(probe);
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
