package io.editlock.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project's own {@code mvnw} (README: the two commands): it runs the pinned Maven from its cache,
 * fills the cache by asking the installed Maven for the distribution as an ordinary artifact, and
 * repairs a cache that holds no runnable Maven. Run on a copy of the script in a scratch project, with
 * a stand-in {@code mvn} on the PATH that hands out a stand-in distribution and counts its calls.
 */
class MvnwTest {

    private static final String VERSION = "9.9.9";

    @TempDir
    Path scratch;

    private Path project;
    private Path userHome;
    private Path fetches;

    private void setUp() throws IOException {
        project = Files.createDirectories(scratch.resolve("project with spaces"));
        Files.copy(Path.of("mvnw"), project.resolve("mvnw"));
        Files.createDirectories(project.resolve(".mvn"));
        Files.writeString(project.resolve(".mvn/maven.properties"), "maven.version=" + VERSION + "\n");
        userHome = Files.createDirectories(scratch.resolve("m2"));
        fetches = scratch.resolve("fetches");
        Path zip = scratch.resolve("dist.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new ZipEntry("apache-maven-" + VERSION + "/bin/mvn"));
            out.write("#!/bin/sh\necho \"stand-in maven $*\"\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        Path bin = Files.createDirectories(scratch.resolve("bin"));
        // The installed Maven: copies the distribution into -DoutputDirectory, as the dependency plugin would.
        executable(
                bin.resolve("mvn"),
                "#!/bin/sh\necho fetch >> '" + fetches + "'\n"
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

    private String mvnw(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(project.resolve("mvnw").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(scratch.toFile());
        Map<String, String> env = builder.environment();
        env.put("PATH", scratch.resolve("bin") + ":" + System.getenv("PATH"));
        env.put("MAVEN_USER_HOME", userHome.toString());
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "mvnw ends");
        assertEquals(0, process.exitValue(), "mvnw " + String.join(" ", args) + ": " + out + "\n" + err);
        return out;
    }

    private static void executable(Path file, String script) throws IOException {
        Files.writeString(file, script);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
