package io.editlock.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The places an upgrade reserves until its socket opens (docs/protocol.md §4, sockets per user). */
class SocketQuotaTest {

    private final Map<String, Integer> open = new ConcurrentHashMap<>();
    private final AtomicLong now = new AtomicLong();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final SocketQuota quota =
            new SocketQuota(user -> open.getOrDefault(user, 0), new LimitMetrics(meters), 3, now::get);

    private void opens(String user) {
        open.merge(user, 1, Integer::sum);
        quota.opened(user);
    }

    @Test
    void placesReservedByUpgradesInFlightCountLikeOpenSockets() {
        assertTrue(quota.reserve("sara"));
        assertTrue(quota.reserve("sara"));
        opens("sara");
        assertTrue(quota.reserve("sara"), "one open, one on its way: a third place is free");
        assertFalse(quota.reserve("sara"), "one open, two on their way: none left");
        assertTrue(quota.reserve("tom"), "per user");
        opens("sara");
        opens("sara");
        assertTrue(quota.withinLimit("sara"));
        assertFalse(quota.reserve("sara"));
    }

    @Test
    void aPlaceWhoseSocketNeverOpensIsGivenBackAfterItsReservation() {
        assertTrue(quota.reserve("sara"));
        assertTrue(quota.reserve("sara"));
        assertTrue(quota.reserve("sara"));
        assertFalse(quota.reserve("sara"));
        now.addAndGet(SocketQuota.RESERVATION.toNanos() + 1);
        assertTrue(quota.reserve("sara"), "the handshakes that never finished hold nothing any more");
    }

    @Test
    void thePlacesOfUsersWhoNeverUpgradeAgainAreGivenBackToo() {
        assertTrue(quota.reserve("sara"));
        assertTrue(quota.reserve("tom"));
        assertTrue(quota.reserve("tom"));
        opens("tom");
        assertEquals(0, quota.giveBackExpired(), "within their reservation, places are kept");
        now.addAndGet(SocketQuota.RESERVATION.toNanos() + 1);
        assertEquals(2, quota.giveBackExpired(), "Sara's and Tom's handshakes that never finished");
        assertEquals(0, quota.giveBackExpired(), "nothing is left to give back");
    }

    @Test
    void aSocketThatOpensAfterItsPlaceWasGivenBackAndTakenIsBeyondTheLimit() {
        assertTrue(quota.reserve("sara"));
        now.addAndGet(SocketQuota.RESERVATION.toNanos() + 1);
        assertTrue(quota.reserve("sara"));
        assertTrue(quota.reserve("sara"));
        assertTrue(quota.reserve("sara"));
        opens("sara");
        opens("sara");
        opens("sara");
        opens("sara"); // the late one
        assertFalse(quota.withinLimit("sara"));
        assertEquals(
                1.0,
                meters.get("editlock.limit.refusals")
                        .tag("limit", "sockets")
                        .counter()
                        .count());
    }
}
