package io.editlock.lock;

/** A write refused because another user holds a lock that conflicts with its guard (HTTP 423). */
public class LockedException extends RuntimeException {

    private final Lock blocking;

    public LockedException(Lock blocking) {
        super("Currently edited by " + blocking.ownerUserName());
        this.blocking = blocking;
    }

    /** The other user's lock that refused the write (without its token). */
    public Lock blocking() {
        return blocking;
    }
}
