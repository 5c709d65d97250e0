package io.editlock.ws;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §3 and §6: a client renews its token by itself, also while its user is away, so
 * {@code reauth} is not a sign of the user: a socket that only renews its token still goes idle.
 */
@QuarkusTest
@TestProfile(IdleAndExpiryTest.ShortTimes.class)
class ReauthIsNotActivityTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Test
    void socketThatOnlyRenewsItsTokenLosesItsLocksAsIdle() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        String fresh = DemoLogin.token(sara.id(), sara.name());
        try (WsClient tab = WsClient.connect(base, sara.token())) {
            assertEquals(
                    "lock-acquired",
                    tab.request("lock-configurator", Map.of("configuratorId", c))
                            .path("event")
                            .asText());
            // The client renews its token every 200 ms (its own pace, compressed) until the lock goes.
            await("the lock of a socket that only renews its token to go")
                    .atMost(IdleAndExpiryTest.IDLE.multipliedBy(4))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        JsonNode renewed = tab.request("reauth", Map.of("accessToken", fresh));
                        assertEquals(
                                "reauthed",
                                renewed.path("event").asText(),
                                "control: the renewal itself succeeds: " + renewed);
                        return !tab.events("lock-lost").isEmpty();
                    });
            JsonNode lost =
                    tab.awaitEvent(frame -> frame.path("event").asText().equals("lock-lost"), Duration.ofSeconds(2));
            assertEquals(
                    "idle",
                    lost.path("data").path("reason").asText(),
                    "renewing the token is not user activity: the idle user's lock must go: " + lost);
        }
    }
}
