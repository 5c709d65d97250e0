package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.lock.MovedSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which reads of a place's position are news to its user (docs/protocol.md §14, {@code queue-updated}):
 * the reads of several moves of one line may come back in any order, and two may find the same
 * position. A place only moves forward, so only a read that finds it further forward than told is.
 */
class PositionsToldTest {

    private static final long CONFIGURATOR = 7;
    private static final String FIELD = "i:5:filters";
    private static final String MEMBER = FIELD + "|0000000000000009|ann";

    private final WaitingState state = new WaitingState(null, null); // places only: no store is read

    private void join(String member, long position) {
        assertTrue(
                state.joined(state.joining("ann", CONFIGURATOR, FIELD), "ann", CONFIGURATOR, FIELD, member, position));
    }

    @Test
    void aReadOvertakenByTheReadOfALaterMoveIsNoNews() {
        join(MEMBER, 6);
        assertTrue(state.movedUp("ann", CONFIGURATOR, FIELD, MEMBER, 3));
        assertFalse(state.movedUp("ann", CONFIGURATOR, FIELD, MEMBER, 4), "an older read, come back late");
        assertFalse(state.movedUp("ann", CONFIGURATOR, FIELD, MEMBER, 3), "two reads that found the same");
        assertTrue(state.movedUp("ann", CONFIGURATOR, FIELD, MEMBER, 2));
        assertEquals(2, state.told("ann", CONFIGURATOR, FIELD, MEMBER));
    }

    @Test
    void aReadOfAPlaceThatEndedIsNoNewsForTheUsersNextPlace() {
        join(MEMBER, 2);
        String later = FIELD + "|0000000000000012|ann";
        state.left("ann", CONFIGURATOR, FIELD, MEMBER);
        join(later, 5);
        assertFalse(state.movedUp("ann", CONFIGURATOR, FIELD, MEMBER, 1));
        assertFalse(state.movedUp("ann", CONFIGURATOR, FIELD, MEMBER, 0));
        assertEquals(5, state.told("ann", CONFIGURATOR, FIELD, later));
    }

    @Test
    void aPlaceAskedForAgainKeepsThePositionToldSince() {
        join(MEMBER, 4);
        assertTrue(state.movedUp("ann", CONFIGURATOR, FIELD, MEMBER, 2));
        // The script of the second wait-for read the line before that move.
        join(MEMBER, 3);
        assertEquals(2, state.told("ann", CONFIGURATOR, FIELD, MEMBER));
        assertFalse(state.movedUp("ann", CONFIGURATOR, FIELD, MEMBER, 2));
    }

    @Test
    void aPlaceAResumeBroughtHereLearnsItsFirstPosition() {
        WaitingState.Resuming resume = state.resuming("ann");
        state.resumed(
                resume,
                new MovedSocket(
                        List.of(), true, List.of(new MovedSocket.Place(CONFIGURATOR, FIELD, MEMBER)), List.of()));
        assertTrue(state.movedUp("ann", CONFIGURATOR, FIELD, MEMBER, 4));
        assertFalse(state.movedUp("ann", CONFIGURATOR, FIELD, MEMBER, 4));
    }
}
