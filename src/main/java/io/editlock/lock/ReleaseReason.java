package io.editlock.lock;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Why a lock went away (docs/protocol.md §4, {@code lock-released.reason}). */
public enum ReleaseReason {
    UNLOCK,
    DISCONNECT,
    REPLACED,
    EXPIRED,
    IDLE,
    ADMIN,
    DELETED,
    /** Handed to another user with consent (docs/protocol.md §13). */
    TAKEN_OVER;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Optional<ReleaseReason> fromWire(String name) {
        return Arrays.stream(values())
                .filter(reason -> reason.wireName().equals(name))
                .findFirst();
    }
}
