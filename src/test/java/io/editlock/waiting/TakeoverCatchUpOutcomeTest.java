package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.lock.Lock;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Plain JUnit, no Quarkus: how a take-over that ended while a node listened to nothing is told to
 * its asker (docs/protocol.md §13), from the page as it stands. Tom (8) asked Sara (7) for the filters
 * page of item 5 in configurator 12.
 */
class TakeoverCatchUpOutcomeTest {

    private static final long C = 12;
    private static final String FIELD = "i:5:filters";
    private static final Resource PAGE = Resource.itemPage(5, Page.FILTERS).inConfigurator(C);

    @Test
    void stillPendingIsNothingMissed() {
        assertEquals(Optional.empty(), outcome(true, new TakeoverFacts.Asked(FIELD, "8", true, false, null, null)));
    }

    @Test
    void aDeletedPageOrConfiguratorEndsItAsDeleted() {
        TakeoverCatchUp.Missed deleted = new TakeoverCatchUp.Deleted(C, FIELD, "8");
        assertEquals(Optional.of(deleted), outcome(true, ended(false, null, null)), "the item is gone");
        assertEquals(Optional.of(deleted), outcome(false, ended(false, null, null)), "the configurator is gone");
    }

    @Test
    void theAskerHoldingThePageWasGrantedIt() {
        Lock toms = lock(PAGE, "8", "Tom");
        assertEquals(Optional.of(new TakeoverCatchUp.Granted(C, toms)), outcome(true, ended(true, toms, null)));
    }

    @Test
    void theOneAskedStillInTheWayRefused() {
        Lock saras = lock(PAGE, "7", "Sara");
        assertEquals(
                Optional.of(new TakeoverCatchUp.Refused(C, FIELD, "8", "Sara")),
                outcome(true, ended(true, saras, saras)));
    }

    @Test
    void anotherLockInTheWayIsWhatBlocksTheAsker() {
        Lock adas = lock(PAGE, "9", "Ada");
        assertEquals(
                Optional.of(new TakeoverCatchUp.Blocked(C, FIELD, "8", adas)),
                outcome(true, ended(true, adas, adas)),
                "somebody else holds the page now");
        Lock saras = lock(PAGE, "7", "Sara");
        Lock configurator = lock(Resource.configurator(C), "9", "Ada");
        assertEquals(
                Optional.of(new TakeoverCatchUp.Blocked(C, FIELD, "8", configurator)),
                outcome(true, ended(true, saras, configurator)),
                "a wider lock of somebody else is in the way");
    }

    @Test
    void nothingInTheWayIsFree() {
        assertEquals(Optional.of(new TakeoverCatchUp.Free(C, FIELD, "8")), outcome(true, ended(true, null, null)));
    }

    private static Optional<TakeoverCatchUp.Missed> outcome(boolean found, TakeoverFacts.Asked now) {
        return TakeoverCatchUp.outcome(C, found, now, "7");
    }

    private static TakeoverFacts.Asked ended(boolean exists, Lock lock, Lock blocking) {
        return new TakeoverFacts.Asked(FIELD, "8", false, exists, lock, blocking);
    }

    private static Lock lock(Resource resource, String userId, String userName) {
        return new Lock(resource, userId, userName, Instant.EPOCH, Instant.EPOCH.plusSeconds(30), 17, Map.of());
    }
}
