package io.editlock.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.lock.Lock;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a socket's client was told it holds, grant by grant (by fencing token). */
class HeldLocksTest {

    private static final Resource FILTERS = Resource.itemPage(5, Page.FILTERS).inConfigurator(1);
    private static final Resource VARIABLES = Resource.variables(1);

    private final HeldLocks held = new HeldLocks();

    @Test
    void theEndOfAnOlderGrantDoesNotTakeANewerGrantOfTheSamePage() {
        held.granted(grant(FILTERS, 10));
        held.granted(grant(FILTERS, 11));
        held.ended(FILTERS, 10);
        assertEquals(List.of(11L), tokens(held.toldBefore(System.nanoTime() + 1)));
        held.ended(FILTERS, 11);
        assertTrue(held.toldBefore(System.nanoTime() + 1).isEmpty());
    }

    @Test
    void aReentryIsTheGrantToldBefore() {
        held.granted(grant(VARIABLES, 7));
        long between = System.nanoTime();
        held.granted(grant(VARIABLES, 7));
        assertEquals(List.of(7L), tokens(held.toldBefore(between)), "told when it was first granted");
    }

    @Test
    void onlyGrantsToldBeforeTheGivenMomentAreListed() {
        held.granted(grant(VARIABLES, 7));
        long between = System.nanoTime();
        held.granted(grant(FILTERS, 8));
        assertEquals(List.of(7L), tokens(held.toldBefore(between)));
    }

    @Test
    void theNewestTokenOfAConfiguratorIsOfTheGrantsStillBelievedHeldThere() {
        Resource elsewhere = Resource.variables(2);
        assertEquals(0, held.newestIn(1), "nothing told");
        held.granted(grant(FILTERS, 8));
        held.granted(grant(VARIABLES, 7));
        held.granted(grant(elsewhere, 30));
        assertEquals(8, held.newestIn(1));
        assertEquals(30, held.newestIn(2));
        held.ended(FILTERS, 8);
        assertEquals(7, held.newestIn(1));
        assertEquals(0, held.newestIn(3));
    }

    @Test
    void anEndWithoutATokenTakesWhicheverGrantThePageHad() {
        held.granted(grant(VARIABLES, 7));
        held.ended(VARIABLES);
        assertTrue(held.toldBefore(System.nanoTime() + 1).isEmpty());
    }

    @Test
    void aGrantIsLostOnceAndNotAfterItsEndWasToldAnotherWay() {
        held.granted(grant(VARIABLES, 7));
        held.granted(grant(FILTERS, 8));
        List<HeldLocks.Told> told = held.toldBefore(System.nanoTime() + 1);
        HeldLocks.Told variables = told.stream()
                .filter(t -> t.resource().equals(VARIABLES))
                .findFirst()
                .orElseThrow();
        HeldLocks.Told filters = told.stream()
                .filter(t -> t.resource().equals(FILTERS))
                .findFirst()
                .orElseThrow();
        assertTrue(held.lost(variables));
        assertFalse(held.lost(variables), "told once");
        held.ended(FILTERS, 8);
        assertFalse(held.lost(filters), "its lock-lost already went out");
    }

    private static Lock grant(Resource resource, long token) {
        Instant now = Instant.now();
        return new Lock(resource, "u1", "Sara", now, now.plusSeconds(30), token, Map.of("s-1", "n-1"));
    }

    private static List<Long> tokens(List<HeldLocks.Told> told) {
        return told.stream().map(HeldLocks.Told::token).sorted().toList();
    }
}
