package io.editlock.lock;

/**
 * A write whose {@code Lock-Token} is not the token of a lock the writer holds now that covers the
 * write: the writer lost that lock, or names another one (HTTP 412, docs/protocol.md §7).
 */
public class LockTokenMismatchException extends RuntimeException {

    /** @param token as parsed: {@link Long#MAX_VALUE} stands for any number beyond every token (§7) */
    public LockTokenMismatchException(long token) {
        super((token == Long.MAX_VALUE ? "The Lock-Token (beyond every token ever handed out)" : "Lock-Token " + token)
                + " is not the token of a lock you hold now that covers this write");
    }
}
