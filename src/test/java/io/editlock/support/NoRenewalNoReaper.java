package io.editlock.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.time.Duration;
import java.util.Map;

/**
 * Leases of 2 s that nothing renews and no reaper looks at by itself: a lease that ran out stays in
 * the store until a test (or a step under test) comes to it.
 */
public class NoRenewalNoReaper implements QuarkusTestProfile {

    /** The lease TTL of this profile. */
    public static final Duration LEASE = Duration.ofSeconds(2);

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "editlock.lease.ttl", LEASE.toMillis() + "ms",
                "editlock.lease.renew-interval", "1h",
                "editlock.lease.reaper-interval", "1h");
    }
}
