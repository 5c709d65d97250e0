package io.editlock.lock;

import java.util.ArrayList;
import java.util.List;

/**
 * What a resume moved from a socket that went to the new one (docs/protocol.md §5).
 *
 * @param locks the locks the new socket keeps now
 * @param waits whether the new socket now waits in a line or asks for a take-over where the old one did
 * @param places the new socket's places in lines, which its node now follows (§14)
 * @param asks the new socket's take-over requests, whose end its node now follows (§13)
 */
public record MovedSocket(List<Lock> locks, boolean waits, List<Place> places, List<Ask> asks) {

    public static final MovedSocket NOTHING = new MovedSocket(List.of(), false, List.of(), List.of());

    /**
     * A take-over request.
     *
     * @param field the page's field in the configurator ({@link Resource#field()})
     * @param holderId the user asked for the page
     */
    public record Ask(long configuratorId, String field, String holderId) {}

    /**
     * A place in a line.
     *
     * @param field the page's field in the configurator ({@link Resource#field()})
     * @param member the place's member in the configurator's line, by which its position is read
     */
    public record Place(long configuratorId, String field, String member) {}

    /** Whether the old socket still had anything kept for it: else its token resumes nothing (§11). */
    public boolean keptAnything() {
        return !locks.isEmpty() || waits;
    }

    /** The two moves together (one per configurator). */
    public MovedSocket and(MovedSocket other) {
        List<Lock> bothLocks = new ArrayList<>(locks);
        bothLocks.addAll(other.locks);
        List<Place> bothPlaces = new ArrayList<>(places);
        bothPlaces.addAll(other.places);
        List<Ask> bothAsks = new ArrayList<>(asks);
        bothAsks.addAll(other.asks);
        return new MovedSocket(
                List.copyOf(bothLocks), waits || other.waits, List.copyOf(bothPlaces), List.copyOf(bothAsks));
    }
}
