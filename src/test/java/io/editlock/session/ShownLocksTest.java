package io.editlock.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.lock.Lock;
import io.editlock.lock.Resource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a catch-up owes the watchers (docs/protocol.md §6): the locks shown when the node heard again
 * that the store no longer keeps, less those it heard of since; each catch-up its own.
 */
class ShownLocksTest {

    private static final long C = 7;
    private static final Instant AT = Instant.parse("2026-12-05T09:00:00Z");
    private static final Lock SARAS =
            new Lock(Resource.variables(C), "sara", "Sara", AT, AT.plusSeconds(30), 0, Map.of());

    private final ShownLocks shown = new ShownLocks();

    @Test
    void aLockShownAndNoLongerStoredIsOwed() {
        shown.broadcast(C, List.of(SARAS));
        ShownLocks.CatchUp catchUp = shown.catchUpBegins(List.of(C));
        assertEquals(List.of(new ShownLocks.Ended(SARAS, Optional.empty())), shown.endedUnheard(catchUp, C, List.of()));
    }

    @Test
    void aLockStillStoredIsNotOwed() {
        shown.broadcast(C, List.of(SARAS));
        ShownLocks.CatchUp catchUp = shown.catchUpBegins(List.of(C));
        Lock sameGrantWithToken = new Lock(SARAS.resource(), "sara", "Sara", AT, AT.plusSeconds(60), 17, Map.of());
        assertEquals(List.of(), shown.endedUnheard(catchUp, C, List.of(sameGrantWithToken)));
    }

    @Test
    void aReleaseHeardAfterTheCatchUpBeganIsNoLongerOwed() {
        shown.broadcast(C, List.of(SARAS));
        ShownLocks.CatchUp catchUp = shown.catchUpBegins(List.of(C));
        shown.heard(C, SARAS);
        shown.broadcast(C, List.of());
        assertEquals(List.of(), shown.endedUnheard(catchUp, C, List.of()));
    }

    @Test
    void theSocketWhoseUnlockReplyToldItIsNamed() {
        shown.broadcast(C, List.of(SARAS));
        shown.toldByReply(C, SARAS, "sara-socket");
        ShownLocks.CatchUp catchUp = shown.catchUpBegins(List.of(C));
        assertEquals(
                List.of(new ShownLocks.Ended(SARAS, Optional.of("sara-socket"))),
                shown.endedUnheard(catchUp, C, List.of()));
    }

    /** The first read still found the lock; it ended while the node heard nothing a second time. */
    @Test
    void overlappingCatchUpsEachOweWhatTheyWereShown() {
        shown.broadcast(C, List.of(SARAS));
        ShownLocks.CatchUp first = shown.catchUpBegins(List.of(C));
        ShownLocks.CatchUp second = shown.catchUpBegins(List.of(C));
        assertEquals(List.of(), shown.endedUnheard(first, C, List.of(SARAS)));
        assertEquals(List.of(new ShownLocks.Ended(SARAS, Optional.empty())), shown.endedUnheard(second, C, List.of()));
    }

    @Test
    void aConfiguratorNoLongerWatchedIsForgotten() {
        shown.broadcast(C, List.of(SARAS));
        shown.catchUpBegins(List.of());
        ShownLocks.CatchUp later = shown.catchUpBegins(List.of(C));
        assertEquals(List.of(), shown.endedUnheard(later, C, List.of()));
    }
}
