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
 * user an outcome a second time (take-over) or keeps a place that no longer exists (line).
 */
class WaitingStateTwoTabsTest {

    private static final long CONFIGURATOR = 7;
    private static final String FIELD = "i:5:filters";
    private static final AskedTakeover BY_TOM = new AskedTakeover(FIELD, "tom", "sara");

    private final WaitingState state = new WaitingState(null, null); // no store is read

    @Test
    void aTakeoverThatEndedBetweenTheRepliesOfTwoTabsIsNotRecordedByTheSecond() {
        state.asking(CONFIGURATOR, FIELD, "tom");
        state.asking(CONFIGURATOR, FIELD, "tom");

        state.askedUnlessEnded(CONFIGURATOR, BY_TOM);
        assertEquals(List.of(BY_TOM), state.askedIn(CONFIGURATOR));
        assertTrue(state.takeoverEnded("tom", CONFIGURATOR, FIELD).isPresent(), "Sara refused");
        state.askedUnlessEnded(CONFIGURATOR, BY_TOM);

        assertEquals(List.of(), state.askedIn(CONFIGURATOR));
    }

    @Test
    void aTabRefusedAtOnceDoesNotMakeTheOtherTabForgetAnEndItHeard() {
        state.asking(CONFIGURATOR, FIELD, "tom");
        state.asking(CONFIGURATOR, FIELD, "tom");

        state.notAsking(CONFIGURATOR, FIELD, "tom");
        state.takeoverEnded("tom", CONFIGURATOR, FIELD);
        state.askedUnlessEnded(CONFIGURATOR, BY_TOM);

        assertEquals(List.of(), state.askedIn(CONFIGURATOR));
    }

    @Test
    void aTakeoverAskedFromTwoTabsThatStandsIsRecordedOnceAndTheNextAskStartsAfresh() {
        state.asking(CONFIGURATOR, FIELD, "tom");
        state.asking(CONFIGURATOR, FIELD, "tom");
        state.askedUnlessEnded(CONFIGURATOR, BY_TOM);
        state.askedUnlessEnded(CONFIGURATOR, BY_TOM);
        assertEquals(List.of(BY_TOM), state.askedIn(CONFIGURATOR));

        state.takeoverEnded("tom", CONFIGURATOR, FIELD);
        state.asking(CONFIGURATOR, FIELD, "tom");
        state.askedUnlessEnded(CONFIGURATOR, BY_TOM);
        assertEquals(List.of(BY_TOM), state.askedIn(CONFIGURATOR), "an end heard before the ask began is not its end");
    }

    @Test
    void aPlaceServedBetweenTheRepliesOfTwoTabsIsNotRecordedByTheSecond() {
        state.joining("tom", CONFIGURATOR, FIELD);
        state.joining("tom", CONFIGURATOR, FIELD);

        assertTrue(state.joined("tom", CONFIGURATOR, FIELD, "m1", 1));
        state.served("tom", CONFIGURATOR, FIELD);
        assertFalse(state.joined("tom", CONFIGURATOR, FIELD, "m1", 1));

        assertFalse(state.waits("tom", CONFIGURATOR, FIELD));
    }
}
