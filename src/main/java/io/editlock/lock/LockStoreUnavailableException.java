package io.editlock.lock;

import java.util.Optional;

/** The lock store could not be reached or refused the request: nothing was granted. */
public class LockStoreUnavailableException extends RuntimeException {

    /** The resource asked for, with its configurator, when the failure came after it was found. */
    private final transient Resource resolved;

    public LockStoreUnavailableException(String message, Throwable cause) {
        this(message, cause, null);
    }

    private LockStoreUnavailableException(String message, Throwable cause, Resource resolved) {
        super(message, cause);
        this.resolved = resolved;
    }

    /**
     * Any failure to reach or use the store after the resource was found: its refusal can name the
     * configurator (docs/protocol.md §4: {@code configuratorId} whenever the server knows it).
     */
    public static LockStoreUnavailableException of(Throwable failure, Resource resolved) {
        LockStoreUnavailableException unavailable = of(failure);
        return unavailable.resolved != null
                ? unavailable
                : new LockStoreUnavailableException(unavailable.getMessage(), unavailable.getCause(), resolved);
    }

    /** @return the resource with its configurator, when the store failed after it was found */
    public Optional<Resource> resolved() {
        return Optional.ofNullable(resolved);
    }

    /** Any failure to reach or use the store, as this exception (itself if it already is one). */
    public static LockStoreUnavailableException of(Throwable failure) {
        return failure instanceof LockStoreUnavailableException unavailable
                ? unavailable
                : new LockStoreUnavailableException(
                        "the lock store cannot be reached: " + failure.getMessage(), failure);
    }
}
