package io.editlock.redis.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which redis-server dev mode and the tests start when no Redis is configured (README, "Pointing it at
 * a real Redis"): one on the PATH only if editlock can run on it, and the bundled one from a directory
 * no one else may write to.
 */
class RedisBinaryTest {

    @TempDir
    Path scratch;

    @Test
    void aRedisOnThePathOlderThanSixTwoIsPassedOver() throws IOException {
        Path old = fakeRedis("old", "Redis server v=6.0.16 sha=00000000:0 malloc=jemalloc-5.2.1 bits=64");
        Path recent = fakeRedis("recent", "Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64");
        Path valkey = fakeRedis("valkey", "Valkey server v=8.0.1 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64");

        assertEquals(Optional.empty(), RedisBinary.onPath(old.toString()));
        assertEquals(
                Optional.of(recent.resolve("redis-server")),
                RedisBinary.onPath(old + ":" + recent),
                "the first on the PATH that is recent enough");
        assertEquals(Optional.of(valkey.resolve("redis-server")), RedisBinary.onPath(valkey.toString()));
    }

    @Test
    void theBundledRedisRunsFromADirectoryOnlyItsUserMayWriteTo() throws IOException {
        Path binary = RedisBinary.bundled();
        Path dir = binary.getParent();

        Path mine = Files.createTempFile(scratch, "mine", "");
        assertEquals(
                Files.getAttribute(mine, "unix:uid"),
                Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS),
                "its owner is this user");
        assertEquals(
                "rwx------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS)));
        assertEquals(binary, RedisBinary.bundled(), "extracted once");
    }

    /** A directory holding a {@code redis-server} that answers {@code --version} with {@code says}. */
    private Path fakeRedis(String name, String says) throws IOException {
        Path dir = Files.createDirectories(scratch.resolve(name));
        Path binary = dir.resolve("redis-server");
        Files.writeString(binary, "#!/bin/sh\necho '" + says + "'\n");
        Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }
}
