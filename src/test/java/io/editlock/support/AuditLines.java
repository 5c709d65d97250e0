package io.editlock.support;

import java.time.Duration;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.awaitility.Awaitility;

/**
 * The lines the running test app writes to the audit logger ({@code editlock.audit}) while this is open,
 * read in this JVM as a log handler would get them: no log file, no restart of the app for a profile.
 */
public final class AuditLines implements AutoCloseable {

    private final Logger audit = Logger.getLogger("editlock.audit");
    private final Queue<String> lines = new ConcurrentLinkedQueue<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord line) {
            lines.add(line.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    private AuditLines() {
        audit.addHandler(handler);
    }

    public static AuditLines capture() {
        return new AuditLines();
    }

    /** The first line that matches, once the audit log wrote it (it writes in batches, a few ms apart). */
    public String await(String what, Predicate<String> matches) {
        return Awaitility.await(what)
                .atMost(Duration.ofSeconds(5))
                .until(() -> lines.stream().filter(matches).findFirst(), Optional::isPresent)
                .orElseThrow();
    }

    @Override
    public void close() {
        audit.removeHandler(handler);
    }
}
