package io.editlock.lock;

import java.util.ArrayList;
import java.util.List;

/**
 * What a resume moved from a socket that went to the new one (docs/protocol.md §5).
 *
 * @param locks the locks the new socket keeps now
 * @param waits whether the new socket now waits in a line or asks for a take-over where the old one did
 */
public record MovedSocket(List<Lock> locks, boolean waits) {

    public static final MovedSocket NOTHING = new MovedSocket(List.of(), false);

    /** Whether the old socket still had anything kept for it: else its token resumes nothing (§11). */
    public boolean keptAnything() {
        return !locks.isEmpty() || waits;
    }

    /** The two moves together (one per configurator). */
    public MovedSocket and(MovedSocket other) {
        List<Lock> both = new ArrayList<>(locks);
        both.addAll(other.locks);
        return new MovedSocket(List.copyOf(both), waits || other.waits);
    }
}
