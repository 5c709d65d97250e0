package io.editlock.protocol;

/** The names of the server events (docs/protocol.md §4), declared once. */
public final class ServerEvents {

    public static final String WELCOME = "welcome";
    public static final String LOCK_ACQUIRED = "lock-acquired";
    public static final String LOCK_FAILED = "lock-failed";
    public static final String LOCK_RELEASED = "lock-released";
    public static final String UNLOCK_FAILED = "unlock-failed";
    public static final String LOCK_UPDATED = "lock-updated";
    public static final String LOCK_LOST = "lock-lost";
    public static final String UNWATCHED = "unwatched";
    public static final String TOUCHED = "touched";
    public static final String RESUMED = "resumed";
    public static final String REAUTHED = "reauthed";
    public static final String ERROR = "error";
    public static final String CONTENT_CHANGED = "content-changed";
    public static final String TAKEOVER_PENDING = "takeover-pending";
    public static final String TAKEOVER_REQUESTED = "takeover-requested";
    public static final String TAKEOVER_ANSWERED = "takeover-answered";
    public static final String TAKEOVER_GRANTED = "takeover-granted";
    public static final String TAKEOVER_REFUSED = "takeover-refused";
    public static final String QUEUED = "queued";
    public static final String QUEUE_UPDATED = "queue-updated";
    public static final String NOT_WAITING = "not-waiting";

    private ServerEvents() {}
}
