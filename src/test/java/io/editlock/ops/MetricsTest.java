package io.editlock.ops;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code /q/metrics} tells an operator what the locks are doing (docs/operations.md lists them). */
@QuarkusTest
class MetricsTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Test
    void lockActivityShowsInThePrometheusMetrics() {
        long configurator = Fixtures.configurator(store);
        var sara = DemoLogin.user("Sara");
        var omar = DemoLogin.user("Omar");
        try (WsClient s = WsClient.connect(base, sara.token());
                WsClient o = WsClient.connect(base, omar.token())) {
            o.request("watch", Map.of("configuratorId", configurator));
            s.request("lock-configurator", Map.of("configuratorId", configurator));
            o.request("lock-configurator", Map.of("configuratorId", configurator));
            o.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                    && !frame.path("data").path("locks").isEmpty());
            String whileHeld = given().when().get("/q/metrics").asString();
            // Figures of this node now, not of an application that ran earlier in the same JVM.
            assertTrue(
                    sample(whileHeld, "editlock_sockets_connected{transport=\"websocket\"}") >= 2,
                    "both open sockets are counted: " + whileHeld);
            assertTrue(
                    sample(whileHeld, "editlock_locks_held{type=\"configurator\"}") >= 1,
                    "Sara's configurator lock is counted: " + whileHeld);
            s.request("unlock-configurator", Map.of("configuratorId", configurator));
            o.awaitEvent(frame -> frame.path("event").asText().equals("lock-released"));

            given().when()
                    .get("/q/metrics")
                    .then()
                    .statusCode(200)
                    .body(containsString("editlock_lock_acquire_seconds_count{outcome=\"granted\""))
                    .body(containsString("editlock_lock_acquire_seconds_count{outcome=\"refused\""))
                    .body(containsString("editlock_lock_conflicts_total"))
                    .body(containsString("editlock_lock_releases_total{reason=\"unlock\""))
                    .body(containsString("editlock_locks_held{type=\"configurator\""))
                    .body(containsString("editlock_sockets_connected"))
                    .body(containsString("editlock_pubsub_lag_seconds_count"));
        }
    }

    /** The value of one sample line of the Prometheus text, or NaN when the body has no such line. */
    private static double sample(String body, String series) {
        return body.lines()
                .filter(line -> line.startsWith(series + " "))
                .mapToDouble(line ->
                        Double.parseDouble(line.substring(series.length() + 1).trim()))
                .findFirst()
                .orElse(Double.NaN);
    }
}
