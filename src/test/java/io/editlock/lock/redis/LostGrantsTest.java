package io.editlock.lock.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §6: a grant gone from the store is judged lost only when it stayed gone for a whole
 * renew interval, all of which the node heard the lock events (so that an announced end had reached it).
 * Times in seconds from an arbitrary origin; the interval is 10 s.
 */
class LostGrantsTest {

    private static final long SECOND = 1_000_000_000L;

    @ParameterizedTest(name = "gone since {0}, heard since {1}, now {2}: lost {3}")
    @CsvSource({
        // gone since | heard since (-1: not hearing now) | now | lost
        "100, 50,  110, true",
        "100, 100, 110, true",
        "100, 50,  109, false", // not a whole interval yet: an announcement may still be on its way
        "100, 101, 120, false", // the events were not heard all along: the catch-up's to tell
        "100, -1,  120, false", // not hearing them now
        "100, 50,  100, false" // found gone for the first time
    })
    void aGrantIsLostOnlyAfterAWholeIntervalHeardThrough(long goneSince, long heardSince, long now, boolean lost) {
        OptionalLong heard = heardSince < 0 ? OptionalLong.empty() : OptionalLong.of(heardSince * SECOND);
        assertEquals(lost, LostGrants.anyLost(List.of(goneSince * SECOND), heard, now * SECOND, 10 * SECOND));
    }

    @ParameterizedTest(name = "{0} and {1} gone, now 110: lost {2}")
    @CsvSource({"100, 105, true", "105, 108, false"})
    void oneLostGrantIsEnough(long first, long second, boolean lost) {
        assertEquals(
                lost,
                LostGrants.anyLost(
                        List.of(first * SECOND, second * SECOND), OptionalLong.of(0), 110 * SECOND, 10 * SECOND));
    }
}
