package io.editlock.support;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Waiting for a latch where a test holds a request back. A latch, not a poll: a step taken while the
 * node listens to nothing must be over within a tenth of a second ({@link PubSubOutage}), and a poll
 * waits a tenth of a second before it first looks.
 */
public final class Latches {

    private static final long WAIT_MILLIS = 15_000;

    private Latches() {}

    /** Waits until the latch opens; fails, saying {@code what} did not happen, after 15 s. */
    public static void awaitOpen(CountDownLatch latch, String what) {
        try {
            assertTrue(latch.await(WAIT_MILLIS, TimeUnit.MILLISECONDS), what + " did not happen within 15 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
