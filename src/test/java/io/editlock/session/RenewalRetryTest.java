package io.editlock.session;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.Lock;
import io.editlock.lock.redis.LockScripts;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.FrozenRedis;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md, Redis unreachable: a lease ends only when the store was away for about as long as
 * the lease. A renewal that failed is tried again within a second of the store being back, not at the
 * next pass, which may come after the lease ran out. Here the passes are an hour apart: only the retry
 * can renew.
 */
@QuarkusTest
@TestProfile(RenewalRetryTest.RareRenewals.class)
class RenewalRetryTest {

    public static class RareRenewals extends FrozenRedis {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("editlock.lease.ttl", "30s");
            overrides.put("editlock.lease.renew-interval", "1h");
            return overrides;
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockScripts scripts;

    @Inject
    LeaseRenewer renewer;

    @Test
    void aRenewalThatFailedIsTriedAgainOnceTheStoreIsBack() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab = WsClient.connect(base, sara.token())) {
            tab.welcome();
            assertEquals(
                    "lock-acquired",
                    tab.request("lock-configurator", Map.of("configuratorId", c))
                            .path("event")
                            .asText());
            Instant granted = expiry(c);

            FrozenRedis.freeze();
            try {
                renewer.renewAll().await().atMost(WAIT); // fails: the store does not answer
            } finally {
                FrozenRedis.thaw();
            }

            await("the lease is renewed once the store is back")
                    .atMost(WAIT)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> expiry(c).isAfter(granted));
        }
    }

    private Instant expiry(long c) {
        List<Lock> locks = scripts.list(c).await().atMost(WAIT);
        assertEquals(1, locks.size(), locks.toString());
        return locks.get(0).expiresAt();
    }
}
