package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.lock.Lock;
import io.editlock.lock.Resource;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A grant found by a catch-up and heard as an event is told once, whichever comes first. */
class GrantsToldTest {

    private final GrantsTold told = new GrantsTold();

    @Test
    void aGrantACatchUpToldIsNotToldAgainByItsEvent() {
        told.catchUpBegins();

        assertTrue(told.firstByCatchUp(7, grant(7, 1_000)));
        assertFalse(told.firstByEvent(7, grant(7, 1_000)));
    }

    @Test
    void aGrantHeardDuringACatchUpIsNotToldAgainByIt() {
        told.catchUpBegins();

        assertTrue(told.firstByEvent(7, grant(7, 1_000)));
        assertFalse(told.firstByCatchUp(7, grant(7, 1_000)));
    }

    @Test
    void tokensAreTheirConfiguratorsOwn() {
        told.catchUpBegins();

        assertTrue(told.firstByCatchUp(7, grant(7, 1_000)));
        assertTrue(told.firstByEvent(8, grant(8, 1_000)), "another configurator's grant with the same token");
    }

    @Test
    void withoutACatchUpEveryEventTellsItsGrant() {
        assertTrue(told.firstByEvent(7, grant(7, 1_000)));
        assertTrue(told.firstByEvent(7, grant(7, 1_000)), "nothing is kept while nothing is caught up");
    }

    private static Lock grant(long configuratorId, long token) {
        return new Lock(
                Resource.variables(configuratorId),
                "tom",
                "Tom",
                Instant.EPOCH,
                Instant.EPOCH.plusSeconds(30),
                token,
                Map.of());
    }
}
