package io.editlock.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.TestRedis;
import io.editlock.support.WsClient;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: a lock request the store did not answer in time is answered UNAVAILABLE, and its
 * requester holds nothing for it. Redis is frozen (SIGSTOP) while the request waits in it, and runs it
 * when it wakes up (SIGCONT), after the server gave up: the late grant is given back and announced,
 * and the socket does not keep renewing it.
 */
@QuarkusTest
@TestProfile(TimedOutRequestTest.FrozenRedis.class)
class TimedOutRequestTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    public static class FrozenRedis implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.redis.timeout", "1s");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(OwnRedis.class));
        }
    }

    /** A redis-server of this test's own, so that the test can freeze it. */
    public static class OwnRedis implements QuarkusTestResourceLifecycleManager {
        static RedisProcess redis;

        @Override
        public Map<String, String> start() {
            redis = TestRedis.start();
            return Map.of("quarkus.redis.hosts", redis.url());
        }

        @Override
        public void stop() {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    @Test
    void aLateGrantOfARequestThatTimedOutIsGivenBack() throws Exception {
        long c = Fixtures.configurator(store);
        Holder sara = Fixtures.user("Sara");
        try (WsClient watcher = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            watcher.request("watch", Map.of("configuratorId", c));
            // The connection the request goes out on is open and Redis knows the script: the request
            // itself waits in Redis.
            Holder warm = Fixtures.user("Warm");
            Resource elsewhere = Resource.configurator(Fixtures.configurator(store));
            assertInstanceOf(
                    AcquireResult.Granted.class,
                    locks.acquire(elsewhere, warm).await().atMost(WAIT));
            locks.release(elsewhere, warm.userId(), warm.socketId()).await().atMost(WAIT);

            signal("STOP");
            try {
                assertThrows(
                        LockStoreUnavailableException.class,
                        () -> locks.acquire(Resource.configurator(c), sara)
                                .await()
                                .atMost(WAIT),
                        "a request the store does not answer in time fails as unavailable");
            } finally {
                signal("CONT");
            }

            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertEquals(
                            List.of(),
                            locks.locks(c).await().atMost(WAIT),
                            "Sara was told the store is unavailable: she must hold nothing, watcher saw "
                                    + watcher.received()));
            assertEquals(
                    0,
                    locks.renewSocket(sara.socketId(), sara.userId()).await().atMost(WAIT),
                    "her socket must not renew a lock it was told it did not get");
            boolean grantSeen = watcher.received().stream()
                    .anyMatch(frame -> frame.path("event").asText().equals("lock-updated")
                            && frame.path("data").path("locks").size() > 0);
            if (grantSeen) {
                JsonNode released = watcher.awaitEvent("lock-released");
                assertEquals(
                        c,
                        released.path("data")
                                .path("resource")
                                .path("configuratorId")
                                .asLong(),
                        "a late grant that watchers saw is announced as released: " + released);
            }
            assertInstanceOf(
                    AcquireResult.Granted.class,
                    locks.acquire(Resource.configurator(c), Fixtures.user("Omar"))
                            .await()
                            .atMost(WAIT),
                    "nobody holds the configurator: the next user gets it");
            assertFalse(watcher.isClosed());
        }
    }

    private static void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(OwnRedis.redis.pid()))
                .inheritIO()
                .start();
        assertEquals(0, kill.waitFor(), "kill -" + name + " of redis-server");
    }
}
