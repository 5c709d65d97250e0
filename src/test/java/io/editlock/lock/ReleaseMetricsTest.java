package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md, metrics: every release reason is a series from the start, at 0, so that a rate
 * or an alert over it reads "none" rather than "no data" until the first such release.
 */
class ReleaseMetricsTest {

    @Test
    void everyReleaseReasonIsCountedFromTheStart() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        LockAudit audit = new LockAudit(meters);
        try {
            for (ReleaseReason reason : ReleaseReason.values()) {
                assertEquals(
                        0.0,
                        meters.get("editlock.lock.releases")
                                .tag("reason", reason.wireName())
                                .counter()
                                .count(),
                        reason.wireName());
            }
        } finally {
            audit.stop();
        }
    }
}
