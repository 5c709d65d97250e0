package io.editlock.rest;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.session.NodeIdentity;
import io.editlock.support.RedisIndependent;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md (health): with the lock store unreachable, {@code /q/health/ready} is DOWN and says
 * why in plain words. The page answers anyone who reaches the node, so it names no address, port,
 * exception, key or channel, nor the node's id: those go to the node's log, once, not on every probe.
 */
@QuarkusTest
@RedisIndependent
@TestProfile(StoreUnavailableTest.ClosedRedis.class)
class StoreUnavailableReadinessTest {

    private static final List<String> CHECKS = List.of(
            "io.editlock.lock.redis.LockStoreReadiness",
            "io.editlock.session.HeartbeatReadiness",
            "io.editlock.redis.ListeningReadiness");

    private static final String CHECK = "checks.find { it.name == '%s' }";

    @Inject
    NodeIdentity node;

    private final Queue<String> warnings = new ConcurrentLinkedQueue<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord line) {
            if (line.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(line instanceof ExtLogRecord ext ? ext.getFormattedMessage() : line.getMessage());
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @Test
    void readinessSaysWhyAndTheLogSaysTheRest() throws Exception {
        CHECKS.forEach(check -> Logger.getLogger(check).addHandler(handler));
        try {
            JsonPath down = await("every check sees the store gone")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(
                            () -> readiness().jsonPath(),
                            ready -> reason(ready, "editlock heartbeat") != null
                                    && "the lock store cannot be reached".equals(reason(ready, "editlock lock store")));
            assertEquals("DOWN", down.getString("status"));
            assertEquals(
                    "content events, inbox, lock events",
                    down.getString(CHECK.formatted("editlock event subscriptions") + ".data.'not listening'"));
            assertEquals("the lock store cannot be reached", reason(down, "editlock heartbeat"));
            assertFalse(
                    down.getList("checks.name").contains("Redis connection health check"),
                    "Quarkus's own Redis check, which shows the client's exception, is off");

            int logged = warnings.size();
            for (int probe = 0; probe < 3; probe++) {
                String body = readiness().asString();
                for (String internal :
                        List.of("127.0.0.1", "Exception", "io.netty", "java.", "refused:", "editlock:", node.id())) {
                    assertFalse(body.contains(internal), "the public page shows " + internal + ": " + body);
                }
            }
            assertEquals(logged, warnings.size(), "the log is told once, not on every probe: " + warnings);
            assertTrue(
                    warnings.stream()
                            .anyMatch(line ->
                                    line.contains("the lock store cannot be reached") && line.contains("127.0.0.1:1")),
                    "the log has what the page leaves out: " + warnings);
            assertTrue(
                    warnings.stream().anyMatch(line -> line.contains("editlock:lock-events")),
                    "the log names the channels: " + warnings);
        } finally {
            CHECKS.forEach(check -> Logger.getLogger(check).removeHandler(handler));
        }
    }

    private static Response readiness() {
        return given().get("/q/health/ready").then().statusCode(503).extract().response();
    }

    private static String reason(JsonPath readiness, String check) {
        return readiness.getString(CHECK.formatted(check) + ".data.reason");
    }
}
