package io.editlock.ws;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.session.SessionLifecycle;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.RawWsClient;
import io.editlock.support.WsClient;
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
 * docs/protocol.md §5: 1000 (the client is done) releases at once, without the reload grace of a page
 * that went away (1001). Ordered against such a page, rather than timed: when Tom's 1000 is announced,
 * Omar's 1001, sent first, must still be waiting out its reload grace, set far longer here than the
 * test can take.
 */
@QuarkusTest
@TestProfile(NormalClosureTest.LongReloadGrace.class)
class NormalClosureTest {

    public static class LongReloadGrace implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("editlock.session.reload-grace", "60s", "editlock.session.grace-period", "120s");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockService locks;

    @Inject
    SessionLifecycle lifecycle;

    @Test
    void normalClosureReleasesAtOnce() {
        long c = Fixtures.configurator(store);
        long reloading = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token());
                RawWsClient tom =
                        RawWsClient.connect(base, DemoLogin.user("Tom").token());
                RawWsClient omar =
                        RawWsClient.connect(base, DemoLogin.user("Omar").token())) {
            sara.request("watch", Map.of("configuratorId", c));
            tom.request(lock(c, "l1"), "l1");
            omar.request(lock(reloading, "l2"), "l2");
            String socketId = tom.welcome().path("data").path("socketId").asText();
            omar.sendClose(1001);
            awaitKeptForResume(omar.welcome().path("data").path("socketId").asText());

            tom.sendClose(1000);

            JsonNode released = sara.awaitEvent(
                    frame -> "lock-released".equals(frame.path("event").asText()), Duration.ofSeconds(10));
            assertEquals(
                    "disconnect",
                    released.path("data").path("reason").asText(),
                    "released as a disconnect: " + released);
            assertEquals(
                    1,
                    currentLocks(reloading).size(),
                    "1000 releases at once, without any grace: the page that went away before it still waits");
            assertTrue(
                    lifecycle.droppedSessions().stream()
                            .noneMatch(session -> session.socketId().equals(socketId)),
                    "a socket closed with 1000 does not wait for a resume");
        }
    }

    private void awaitKeptForResume(String socketId) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lifecycle.droppedSessions().stream()
                        .anyMatch(session -> session.socketId().equals(socketId)));
    }

    private List<Lock> currentLocks(long configuratorId) {
        return locks.locks(configuratorId).await().atMost(Duration.ofSeconds(10));
    }

    private static String lock(long configuratorId, String ref) {
        return "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":" + configuratorId + "},\"ref\":\"" + ref
                + "\"}";
    }
}
