package io.editlock.lock;

/** The lock store could not be reached or refused the request: nothing was granted. */
public class LockStoreUnavailableException extends RuntimeException {

    public LockStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Any failure to reach or use the store, as this exception (itself if it already is one). */
    public static LockStoreUnavailableException of(Throwable failure) {
        return failure instanceof LockStoreUnavailableException unavailable
                ? unavailable
                : new LockStoreUnavailableException(
                        "the lock store cannot be reached: " + failure.getMessage(), failure);
    }
}
