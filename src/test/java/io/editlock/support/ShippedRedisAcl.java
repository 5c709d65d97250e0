package io.editlock.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * The ACL file an operator gets in deploy/redis-users.acl, written for a test Redis with a password
 * added to the editlock user at start, as docker-compose.yml adds it (the file holds no secret).
 */
public record ShippedRedisAcl(Path file, String password) {

    /** As shipped: the default user is off, so only editlock's own grants work. */
    public static ShippedRedisAcl asShipped() {
        return write(false);
    }

    /**
     * As shipped, but with the default user left on for the test's own set-up (a cluster is joined with
     * redis-cli as that user); editlock still connects as its own, restricted user.
     */
    public static ShippedRedisAcl withAdminDefaultUser() {
        return write(true);
    }

    /** The URL of the editlock user on a Redis of this port. */
    public String url(int port) {
        return "redis://editlock:" + password + "@127.0.0.1:" + port;
    }

    private static ShippedRedisAcl write(boolean adminDefaultUser) {
        String password = UUID.randomUUID().toString().replace("-", "");
        try {
            Path file = Files.createTempFile("editlock-users-", ".acl");
            file.toFile().deleteOnExit();
            Files.write(
                    file,
                    Files.readAllLines(Path.of("deploy", "redis-users.acl")).stream()
                            .map(line -> line.startsWith("user editlock ") ? line + " >" + password : line)
                            .map(line -> adminDefaultUser && line.startsWith("user default ")
                                    ? "user default on nopass ~* &* +@all"
                                    : line)
                            .toList());
            return new ShippedRedisAcl(file, password);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The redis-server arguments that load it. */
    public List<String> serverArguments() {
        return List.of("--aclfile", file.toString());
    }
}
