package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.waiting.WaitingState.AskedTakeover;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One user asks for the same page from two tabs at once (docs/protocol.md §13, §14): both requests are
 * in flight together, and the end of what they asked for may be heard between their replies. What
 * ended must not be recorded by the reply that comes after its end, or the next catch-up tells the
 * user an outcome a second time (take-over) or keeps a place that no longer exists (line); and what
 * is asked after an end was heard is not ended by it.
 */
class WaitingStateTwoTabsTest {

    private static final long CONFIGURATOR = 7;
    private static final String FIELD = "i:5:filters";
    private static final AskedTakeover BY_TOM = new AskedTakeover(FIELD, "tom", "sara");

    private final WaitingState state = new WaitingState(null, null); // no store is read

    @Test
    void aTakeoverThatEndedBetweenTheRepliesOfTwoTabsIsNotRecordedByTheSecond() {
        InFlightRequests.Ticket first = state.asking(CONFIGURATOR, FIELD, "tom");
        InFlightRequests.Ticket second = state.asking(CONFIGURATOR, FIELD, "tom");

        state.askedUnlessEnded(first, CONFIGURATOR, BY_TOM);
        assertEquals(List.of(BY_TOM), state.askedIn(CONFIGURATOR));
        assertTrue(state.takeoverEnded("tom", CONFIGURATOR, FIELD).isPresent(), "Sara refused");
        state.askedUnlessEnded(second, CONFIGURATOR, BY_TOM);

        assertEquals(List.of(), state.askedIn(CONFIGURATOR));
    }

    @Test
    void aTabRefusedAtOnceDoesNotMakeTheOtherTabForgetAnEndItHeard() {
        InFlightRequests.Ticket refused = state.asking(CONFIGURATOR, FIELD, "tom");
        InFlightRequests.Ticket pending = state.asking(CONFIGURATOR, FIELD, "tom");

        state.notAsking(refused);
        state.notAsking(refused); // its failure handler too, after the refusal
        state.takeoverEnded("tom", CONFIGURATOR, FIELD);
        state.askedUnlessEnded(pending, CONFIGURATOR, BY_TOM);

        assertEquals(List.of(), state.askedIn(CONFIGURATOR));
    }

    @Test
    void anAskThatStartsAfterAnEndWasHeardIsNotEndedByIt() {
        InFlightRequests.Ticket before = state.asking(CONFIGURATOR, FIELD, "tom");
        state.takeoverEnded("tom", CONFIGURATOR, FIELD);
        InFlightRequests.Ticket after = state.asking(CONFIGURATOR, FIELD, "tom");

        state.askedUnlessEnded(before, CONFIGURATOR, BY_TOM);
        assertEquals(List.of(), state.askedIn(CONFIGURATOR), "the end was heard while it was in flight");
        state.askedUnlessEnded(after, CONFIGURATOR, BY_TOM);
        assertEquals(List.of(BY_TOM), state.askedIn(CONFIGURATOR), "its request stands in the store");
    }

    @Test
    void aPlaceServedBetweenTheRepliesOfTwoTabsIsNotRecordedByTheSecond() {
        InFlightRequests.Ticket first = state.joining("tom", CONFIGURATOR, FIELD);
        InFlightRequests.Ticket second = state.joining("tom", CONFIGURATOR, FIELD);

        assertTrue(state.joined(first, "tom", CONFIGURATOR, FIELD, "m1", 1));
        state.left("tom", CONFIGURATOR, FIELD, "m1"); // the left of the grant's waiting event
        assertFalse(state.joined(second, "tom", CONFIGURATOR, FIELD, "m1", 1));

        assertFalse(state.waits("tom", CONFIGURATOR, FIELD));
    }

    @Test
    void aPlaceTakenAfterTheUserWasServedIsRecordedThoughTheGrantIsHeardLater() {
        InFlightRequests.Ticket later = state.joining("tom", CONFIGURATOR, FIELD);

        state.left("tom", CONFIGURATOR, FIELD, "m1"); // the grant of the place Tom had, heard late
        assertTrue(state.joined(later, "tom", CONFIGURATOR, FIELD, "m2", 3));

        assertTrue(state.waits("tom", CONFIGURATOR, FIELD));
    }

    @Test
    void aGrantThisNodeMissedEndsTheRecordedPlaceForAWaitForInFlightThatTookItToo() {
        InFlightRequests.Ticket first = state.joining("tom", CONFIGURATOR, FIELD);
        InFlightRequests.Ticket second = state.joining("tom", CONFIGURATOR, FIELD);
        assertTrue(state.joined(first, "tom", CONFIGURATOR, FIELD, "m1", 1));

        state.grantedUnheard("tom", CONFIGURATOR, FIELD); // the catch-up finds Tom holding the page

        assertFalse(state.joined(second, "tom", CONFIGURATOR, FIELD, "m1", 1));
        assertFalse(state.waits("tom", CONFIGURATOR, FIELD));
    }

    @Test
    void aDeletedPageEndsEveryPlaceOfItsWaitForsInFlight() {
        InFlightRequests.Ticket joining = state.joining("tom", CONFIGURATOR, FIELD);

        state.pageDeleted("tom", CONFIGURATOR, FIELD);

        assertFalse(state.joined(joining, "tom", CONFIGURATOR, FIELD, "m1", 1));
    }

    @Test
    void aPlaceLeftBeforeItsWaitForWasAnsweredIsNotRecorded() {
        InFlightRequests.Ticket joining = state.joining("tom", CONFIGURATOR, FIELD);

        assertFalse(state.left("tom", CONFIGURATOR, FIELD, "m1"), "not recorded yet");
        assertFalse(state.joined(joining, "tom", CONFIGURATOR, FIELD, "m1", 1), "its end was heard first");

        assertFalse(state.waits("tom", CONFIGURATOR, FIELD));
    }

    @Test
    void anOlderPlaceLeftWhileANewWaitForIsInFlightLeavesTheNewPlace() {
        InFlightRequests.Ticket joining = state.joining("tom", CONFIGURATOR, FIELD);

        state.left("tom", CONFIGURATOR, FIELD, "m1"); // the place Tom had before, heard late
        assertTrue(state.joined(joining, "tom", CONFIGURATOR, FIELD, "m2", 1));

        assertTrue(state.waits("tom", CONFIGURATOR, FIELD));
    }
}
