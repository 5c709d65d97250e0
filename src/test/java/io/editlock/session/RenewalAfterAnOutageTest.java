package io.editlock.session;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LockKeys;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5, §6: a socket that stayed open through an outage of the store longer than twice
 * the lease finds its socket index and its resume record run out (both live twice the lease), while
 * its node still counts them as written. The next renewal writes them again, so the locks the socket
 * takes afterwards are renewed, and a drop stays resumable.
 */
@QuarkusTest
class RenewalAfterAnOutageTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockKeys keys;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LeaseRenewer renewer;

    @Inject
    SessionLifecycle lifecycle;

    @Test
    void whatRanOutDuringAnOutageIsWrittenAgainByTheNextRenewal() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        WsClient tab = WsClient.connect(base, sara.token());
        tab.welcome();
        assertEquals(
                "lock-acquired",
                tab.request("lock-variables", Map.of("configuratorId", c))
                        .path("event")
                        .asText());
        String socketId = tab.socketId();
        String resumeToken = tab.resumeToken();
        // What the outage leaves behind: both keys ran out; the node was not told.
        redis.key()
                .del(keys.socketConfigurators(socketId), keys.resume(resumeToken))
                .await()
                .atMost(WAIT);

        renewer.renewAll().await().atMost(WAIT);

        assertEquals(
                Set.of(String.valueOf(c)),
                redis.set(String.class)
                        .smembers(keys.socketConfigurators(socketId))
                        .await()
                        .atMost(WAIT),
                "the socket index lists the configurator again, so its locks there are renewed");
        tab.drop();
        await().atMost(WAIT)
                .until(() -> lifecycle.droppedSessions().stream()
                        .anyMatch(session -> session.socketId().equals(socketId)));
        try (WsClient next = WsClient.connect(base, sara.token())) {
            next.welcome();
            JsonNode resumed = next.request("resume", Map.of("resumeToken", resumeToken));
            assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
            assertEquals(1, resumed.path("data").path("locks").size(), resumed.toString());
        }
    }
}
