package io.editlock.config;

/**
 * A node that refuses to start for its settings says why on its standard error at once, beside the
 * exception that stops it. The console handler is asynchronous, and a start refused this early usually
 * ends the process before it wrote anything: an operator must never face a node that exits without a
 * word.
 */
public final class StartRefusal {

    private StartRefusal() {}

    /** @return {@code refusal}, its message written to standard error */
    public static <E extends RuntimeException> E told(E refusal) {
        System.err.println(refusal.getMessage());
        return refusal;
    }
}
