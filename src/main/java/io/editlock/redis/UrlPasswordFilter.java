package io.editlock.redis;

import io.quarkus.logging.LoggingFilter;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.regex.Pattern;
import org.jboss.logmanager.ExtLogRecord;

/**
 * Hides the password of every URL a log line carries, in its text and in the failures it prints. The
 * Redis Cluster client names each shard by a URL it makes from the seed's, password included
 * ("Failed to connect to all nodes of the cluster - redis://editlock:…@10.0.0.7:6379: Connection
 * refused"), and while a shard cannot be reached that failure reaches the node's warnings once a minute.
 * A log goes where a secret must not: to aggregators, tickets and screenshots. Every handler takes this
 * filter (application.properties).
 */
@LoggingFilter(name = UrlPasswordFilter.NAME)
public final class UrlPasswordFilter implements Filter {

    /** The filter's name in {@code quarkus.log.*.filter}. */
    public static final String NAME = "url-passwords";

    /** What stands in a URL where its password was. */
    static final String HIDDEN = "***";

    /** A URL's scheme and user, then the password: {@code redis://editlock:<password>@}, {@code rediss://:<password>@}. */
    private static final Pattern PASSWORD = Pattern.compile("(\\b[A-Za-z][A-Za-z0-9+.-]*://[^:@/\\s]*):[^@/\\s]*@");

    /** Deeper causes are printed as they are: the failures of a connection nest a few levels at most. */
    private static final int CHAIN_DEPTH = 8;

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
            String formatted = ext.getFormattedMessage();
            if (formatted != null && carriesPassword(formatted)) {
                ext.setMessage(hide(formatted), ExtLogRecord.FormatStyle.NO_FORMAT);
                ext.setParameters(null);
            }
        } else if (record.getMessage() != null && carriesPassword(record.getMessage())) {
            record.setMessage(hide(record.getMessage()));
        }
        Throwable thrown = record.getThrown();
        if (thrown != null && anyCarriesPassword(thrown)) {
            record.setThrown(PasswordHidden.of(thrown, CHAIN_DEPTH));
        }
        return true;
    }

    static String hide(String text) {
        return PASSWORD.matcher(text).replaceAll("$1:" + HIDDEN + "@");
    }

    /** Every log line passes here, the audit line of each grant too: most have no URL, and skip the pattern. */
    private static boolean carriesPassword(String text) {
        return text.contains("://") && PASSWORD.matcher(text).find();
    }

    private static boolean anyCarriesPassword(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < CHAIN_DEPTH; depth++, cause = cause.getCause()) {
            if (cause.getMessage() != null && carriesPassword(cause.getMessage())) {
                return true;
            }
        }
        return false;
    }

    /**
     * A failure printed in place of one whose message named a password: the same class name, message
     * (without the password), stack and causes, so the log reads as it would have.
     */
    static final class PasswordHidden extends RuntimeException {

        private final String shown;

        private PasswordHidden(Throwable original, Throwable cause) {
            super(original.getMessage() == null ? null : hide(original.getMessage()), cause, false, true);
            this.shown = getMessage() == null
                    ? original.getClass().getName()
                    : original.getClass().getName() + ": " + getMessage();
            setStackTrace(original.getStackTrace());
        }

        static Throwable of(Throwable original, int depth) {
            Throwable cause = original.getCause();
            Throwable hiddenCause = cause == null || cause == original || depth <= 1 ? cause : of(cause, depth - 1);
            return new PasswordHidden(original, hiddenCause);
        }

        @Override
        public String toString() {
            return shown;
        }
    }
}
