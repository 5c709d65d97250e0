package io.editlock.session;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.LockService;
import io.editlock.lock.Resource;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.FrozenRedis;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5, §6: a socket that ends while the store does not answer has its release tried again
 * until the store takes it, but not for ever. After two lease TTLs the store has ended what the socket
 * kept by itself, so the node gives the release up: it stops trying, and keeps nothing alive for it.
 * Redis is frozen (SIGSTOP) for the whole wait, so every try fails.
 */
@QuarkusTest
@TestProfile(ReleaseGiveUpTest.FrozenRedisShortLeases.class)
class ReleaseGiveUpTest {

    /** Leases of 2 s, renewed every half second: a release is given up after 4 s of failed tries. */
    public static class FrozenRedisShortLeases extends FrozenRedis {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("editlock.lease.ttl", TTL.toMillis() + "ms");
            overrides.put("editlock.lease.renew-interval", "500ms");
            overrides.put("editlock.lease.reaper-interval", "1s");
            return overrides;
        }
    }

    private static final Duration TTL = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockService locks;

    @Inject
    SocketReleases releases;

    @Test
    void aReleaseTheStoreKeepsRefusingIsGivenUpAfterTwoLeaseTtls() {
        long c = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-configurator", Map.of("configuratorId", c))
                            .path("event")
                            .asText());

            FrozenRedis.freeze();
            try {
                sara.closeCleanly(); // released at once, were the store to answer
                await("the release failed and waits for the store").atMost(WAIT).until(() -> releases.waiting() == 1);
                long failedBy = System.nanoTime();
                await("the release is given up while the store still does not answer")
                        .atMost(WAIT)
                        .until(() -> releases.waiting() == 0);
                Duration tried = Duration.ofNanos(System.nanoTime() - failedBy);
                // Measured from when the test saw the failure, a little after it happened: the bound allows
                // for that, and a slow machine only makes the tries last longer.
                assertTrue(
                        tried.compareTo(TTL.multipliedBy(2).minusMillis(500)) >= 0,
                        "given up only once the store has ended the leases by itself, not after " + tried);
            } finally {
                FrozenRedis.thaw();
            }
        }

        // What the node sent before it gave up may still run now; either way, nothing keeps Sara's lock alive.
        await("Sara's lock ends with its lease")
                .atMost(WAIT)
                .until(() -> locks.locks(c).await().atMost(WAIT).isEmpty());
        assertEquals(0, releases.waiting(), "nothing is tried again once given up");
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(Resource.configurator(c), Fixtures.user("Omar"))
                        .await()
                        .atMost(WAIT),
                "the page is free for the next user");
    }
}
