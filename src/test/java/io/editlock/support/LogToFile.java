package io.editlock.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The app writes its log to {@link #LOG} as well, a new file for each start, one record a line (time,
 * level, [category], message), as a log pipeline would read it. One profile for every test that
 * reads the log: each profile is a start of its own, and an augmentation of its own before the first
 * test runs.
 */
public class LogToFile implements QuarkusTestProfile {

    public static final Path LOG = Path.of("target", "test-app.log");

    @Override
    public Map<String, String> getConfigOverrides() {
        try {
            Files.deleteIfExists(LOG);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Map.of(
                "quarkus.log.file.enabled",
                "true",
                "quarkus.log.file.path",
                LOG.toString(),
                "quarkus.log.file.format",
                "%d{HH:mm:ss,SSS} %-5p [%c] %s%e%n");
    }
}
