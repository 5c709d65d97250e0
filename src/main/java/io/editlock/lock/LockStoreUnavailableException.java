package io.editlock.lock;

/** The lock store could not be reached or refused the request: nothing was granted. */
public class LockStoreUnavailableException extends RuntimeException {

    public LockStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
