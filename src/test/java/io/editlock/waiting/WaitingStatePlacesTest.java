package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The places this node keeps of its users in a line (docs/protocol.md §14, {@code queue-updated}),
 * under real concurrency: a user who joins while the line's last other user of this node leaves must
 * keep their place, or they would never hear that they moved up.
 */
class WaitingStatePlacesTest {

    private static final long CONFIGURATOR = 7;
    private static final String FIELD = "i:5:filters";

    @Test
    void aUserWhoJoinsWhileTheLastOtherLeavesKeepsTheirPlace() throws Exception {
        WaitingState state = new WaitingState(null, null); // places only: no store is read
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService loops = Executors.newFixedThreadPool(2);
        try {
            Future<?> churn = loops.submit(() -> {
                while (!done.get()) {
                    state.joined(
                            state.joining("comes-and-goes", CONFIGURATOR, FIELD),
                            "comes-and-goes",
                            CONFIGURATOR,
                            FIELD,
                            "m1",
                            1);
                    state.left("comes-and-goes", CONFIGURATOR, FIELD);
                }
            });
            Future<Integer> missed = loops.submit(() -> {
                int misses = 0;
                for (int round = 0; round < 2_000_000 && misses == 0; round++) {
                    state.joined(
                            state.joining("joining", CONFIGURATOR, FIELD), "joining", CONFIGURATOR, FIELD, "m2", 2);
                    if (!state.placesIn(CONFIGURATOR, FIELD).containsKey("joining")) {
                        misses++;
                    }
                    state.left("joining", CONFIGURATOR, FIELD);
                }
                return misses;
            });
            int misses = missed.get(60, TimeUnit.SECONDS);
            done.set(true);
            churn.get(10, TimeUnit.SECONDS);
            assertEquals(0, misses, "a user in the line was missing from this node's places");
        } finally {
            done.set(true);
            loops.shutdownNow();
        }
    }
}
