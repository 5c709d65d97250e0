package io.editlock.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Leases of 2 s that the reapers look at every second, and short times after a socket ends (grace,
 * reload grace) or a take-over is asked for (consent window): for tests that watch what nobody
 * renews go away by itself. The scheduler runs no job more often than once a second, so 1 s is the
 * shortest reaper interval that is real.
 */
public class ShortLeases implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "editlock.lease.ttl", "2s",
                "editlock.lease.reaper-interval", "1s",
                "editlock.session.grace-period", "2s",
                "editlock.session.reload-grace", "500ms",
                "editlock.waiting.consent-window", "1s",
                "editlock.waiting.sweep-interval", "500ms");
    }
}
