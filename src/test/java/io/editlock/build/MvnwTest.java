package io.editlock.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project's own {@code mvnw} (README: the two commands): it runs the pinned Maven from its cache,
 * fills the cache by asking the installed Maven for the distribution as an ordinary artifact, installs
 * only a distribution with the pinned SHA-512, lets one run install at a time (with flock), and repairs a cache that
 * holds no runnable Maven. Run on a copy of the script in a scratch project, with a stand-in {@code
 * mvn} on the PATH that hands out a stand-in distribution (slowly) and counts its calls.
 */
class MvnwTest {

    private static final String VERSION = "9.9.9";

    @TempDir
    Path scratch;

    private Path project;
    private Path userHome;
    private Path fetches;

    private void setUp() throws Exception {
        project = Files.createDirectories(scratch.resolve("project with spaces"));
        Files.copy(Path.of("mvnw"), project.resolve("mvnw"));
        Files.createDirectories(project.resolve(".mvn"));
        userHome = Files.createDirectories(scratch.resolve("m2"));
        fetches = scratch.resolve("fetches");
        Path zip = scratch.resolve("dist.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new ZipEntry("apache-maven-" + VERSION + "/bin/mvn"));
            out.write("#!/bin/sh\necho \"stand-in maven $*\"\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        pinSha512(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-512").digest(Files.readAllBytes(zip))));
        Path bin = Files.createDirectories(scratch.resolve("bin"));
        // The installed Maven: copies the distribution into -DoutputDirectory, as the dependency plugin would.
        executable(
                bin.resolve("mvn"),
                "#!/bin/sh\necho fetch >> '" + fetches + "'\nsleep 1\n"
                        + "for a in \"$@\"; do case \"$a\" in -DoutputDirectory=*) dir=${a#-DoutputDirectory=};; esac; done\n"
                        + "cp '" + zip + "' \"$dir/apache-maven-" + VERSION + "-bin.zip\"\n");
    }

    @Test
    void anEmptyCacheIsFilledThroughTheInstalledMavenOnceAndThenUsed() throws Exception {
        setUp();
        assertEquals("stand-in maven -v", mvnw("-v"));
        assertEquals("stand-in maven verify -q", mvnw("verify", "-q"));
        assertEquals(1, Files.readAllLines(fetches).size(), "the second run uses the cache");
    }

    @Test
    void aCacheWithoutARunnableMavenIsReplaced() throws Exception {
        setUp();
        Path broken = Files.createDirectories(userHome.resolve("wrapper/dists/apache-maven-" + VERSION + "/bin"));
        Files.writeString(broken.resolve("mvn"), "restored without its executable bit");
        assertEquals("stand-in maven -v", mvnw("-v"));
        assertEquals("stand-in maven -v", mvnw("-v"), "and stays repaired");
        assertEquals(1, Files.readAllLines(fetches).size());
    }

    @Test
    void aDistributionWithAnotherChecksumIsNotInstalled() throws Exception {
        setUp();
        pinSha512("0".repeat(128));
        Run run = start("-v").finish();
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("not the " + "0".repeat(128) + " pinned"), run.err());
        assertFalse(Files.exists(userHome.resolve("wrapper/dists/apache-maven-" + VERSION)), "nothing installed");
        assertEquals(1, Files.readAllLines(fetches).size());
        assertEquals(List.of(), leftovers(), "no temp dir or lock left behind");
    }

    @Test
    void twoFirstRunsAtOnceFetchOnceAndBothRunIt() throws Exception {
        assumeTrue(onPath("flock"), "mvnw takes its lock with flock(1), which this system lacks");
        setUp();
        Run first = start("-v");
        Run second = start("verify");
        assertEquals("stand-in maven -v", first.finish().successfulOut());
        assertEquals("stand-in maven verify", second.finish().successfulOut());
        assertEquals(1, Files.readAllLines(fetches).size(), "the second waited for the first's copy");
        assertEquals(List.of(), leftovers());
    }

    private void pinSha512(String sum) throws IOException {
        Files.writeString(
                project.resolve(".mvn/maven.properties"),
                "maven.version=" + VERSION + "\nmaven.distribution.sha512=" + sum + "\n");
    }

    /** What else than the installed Maven (and the lock's file, which stays) is in the cache. */
    private List<String> leftovers() throws IOException {
        try (Stream<Path> files = Files.list(userHome.resolve("wrapper/dists"))) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> !name.equals("apache-maven-" + VERSION))
                    .filter(name -> !name.equals(".apache-maven-" + VERSION + ".lock"))
                    .toList();
        }
    }

    private static boolean onPath(String command) {
        return Stream.of(System.getenv("PATH").split(":")).anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
    }

    private String mvnw(String... args) throws Exception {
        return start(args).finish().successfulOut();
    }

    private Run start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(project.resolve("mvnw").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(scratch.toFile());
        Map<String, String> env = builder.environment();
        env.put("PATH", scratch.resolve("bin") + ":" + System.getenv("PATH"));
        env.put("MAVEN_USER_HOME", userHome.toString());
        return new Run(String.join(" ", args), builder.start(), 0, "", "");
    }

    private record Run(String args, Process process, int exit, String out, String err) {
        Run finish() throws Exception {
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "mvnw ends");
            return new Run(args, process, process.exitValue(), out, new String(err.get(), StandardCharsets.UTF_8));
        }

        String successfulOut() {
            assertEquals(0, exit, "mvnw " + args + ": " + out + "\n" + err);
            return out;
        }

        private static byte[] readAll(InputStream in) {
            try {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static void executable(Path file, String script) throws IOException {
        Files.writeString(file, script);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
