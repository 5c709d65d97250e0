package io.editlock.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** No log line shows a URL's password: the Redis Cluster client puts the seed's into its failures. */
class UrlPasswordFilterTest {

    private static final String CLUSTER_FAILURE = "Failed to connect to all nodes of the cluster\n"
            + "- redis://editlock:s3cr3t-Pa55@127.0.0.1:7001: Connection refused: /127.0.0.1:7001";

    private final UrlPasswordFilter filter = new UrlPasswordFilter();

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redis://editlock:s3cr3t@10.0.0.7:6379 | redis://editlock:***@10.0.0.7:6379",
                "rediss://:s3cr3t@redis.internal:6380/0 | rediss://:***@redis.internal:6380/0",
                "- rediss://editlock:p%40ss@h:1: refused, - redis://u:x@h:2: refused | "
                        + "- rediss://editlock:***@h:1: refused, - redis://u:***@h:2: refused",
                "redis://127.0.0.1:6379 | redis://127.0.0.1:6379",
                "http://studio.example.com:8080/api | http://studio.example.com:8080/api",
                "user sara@example.com: locked | user sara@example.com: locked"
            })
    void hidesThePasswordOfEveryUrlAndNothingElse(String text, String shown) {
        assertEquals(shown, UrlPasswordFilter.hide(text));
    }

    @Test
    void aFormattedLineShowsItsUrlWithoutThePassword() {
        ExtLogRecord record = new ExtLogRecord(
                Level.WARNING,
                "cannot open a Redis connection: %s (logged at most once a minute)",
                ExtLogRecord.FormatStyle.PRINTF,
                UrlPasswordFilterTest.class.getName());
        record.setParameters(new Object[] {CLUSTER_FAILURE});

        assertTrue(filter.isLoggable(record));

        assertFalse(record.getFormattedMessage().contains("s3cr3t-Pa55"), record.getFormattedMessage());
        assertTrue(
                record.getFormattedMessage().contains("redis://editlock:***@127.0.0.1:7001: Connection refused"),
                record.getFormattedMessage());
        assertTrue(record.getFormattedMessage().endsWith("(logged at most once a minute)"));
    }

    @Test
    void aFailurePrintedWithTheLineShowsItsCausesWithoutThePassword() {
        IOException refused = new IOException("Connection refused");
        IllegalStateException failure = new IllegalStateException(CLUSTER_FAILURE, refused);
        LogRecord record = new LogRecord(Level.WARNING, "subscription lost");
        record.setThrown(new RuntimeException("wrapped", failure));

        filter.isLoggable(record);

        Throwable shown = record.getThrown();
        assertEquals("java.lang.RuntimeException: wrapped", shown.toString());
        Throwable cause = shown.getCause();
        assertEquals(
                "java.lang.IllegalStateException: " + CLUSTER_FAILURE.replace("s3cr3t-Pa55", "***"), cause.toString());
        assertEquals(failure.getStackTrace().length, cause.getStackTrace().length);
        assertEquals("java.io.IOException: Connection refused", cause.getCause().toString());
    }

    @Test
    void aLineWithoutPasswordsIsLeftAsItIs() {
        IOException failure = new IOException("Connection refused: redis://127.0.0.1:6379");
        ExtLogRecord record = new ExtLogRecord(
                Level.WARNING, "lost %s", ExtLogRecord.FormatStyle.PRINTF, UrlPasswordFilterTest.class.getName());
        record.setParameters(new Object[] {"redis://127.0.0.1:6379"});
        record.setThrown(failure);

        filter.isLoggable(record);

        assertEquals(ExtLogRecord.FormatStyle.PRINTF, record.getFormatStyle());
        assertSame(failure, record.getThrown());
    }
}
