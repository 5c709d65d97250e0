package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.CatalogIndex;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * At most 20 REST writes a second per user, over all nodes: the 21st is refused with 429 and
 * {@code Retry-After}, and writes nothing; other users are not affected. (The other tests run with
 * the limit raised; this one with the default.)
 */
@QuarkusTest
@TestProfile(RestWriteRateTest.DefaultWriteRate.class)
class RestWriteRateTest {

    @Inject
    CatalogIndex index;

    @Test
    void beyondTwentyWritesASecondAUserGets429WithRetryAfter() {
        var sara = DemoLogin.user("Sara");
        boolean refusedTheWriteBeyond = false;
        // A burst that crosses into the next second gets a fresh window; a few tries make sure one
        // burst falls into a single second.
        for (int attempt = 0; attempt < 5 && !refusedTheWriteBeyond; attempt++) {
            awaitStartOfASecond();
            int before = configuratorCount();
            List<Response> answers = new ArrayList<>();
            for (int i = 0; i < 21; i++) {
                answers.add(as(sara).body(Map.of("name", "burst-" + i)).post("/api/configurators"));
            }
            for (int i = 0; i < 20; i++) {
                assertEquals(201, answers.get(i).statusCode(), "write " + (i + 1) + " of a second is served: " + answers.get(i).asString());
            }
            Response beyond = answers.get(20);
            if (beyond.statusCode() == 429) {
                assertEquals("1", beyond.header("Retry-After"), "a 429 says when to try again");
                assertTrue(beyond.jsonPath().getString("message").contains("20 writes a second"), beyond.asString());
                refusedTheWriteBeyond = true;
                assertEquals(before + 20, configuratorCount(), "the refused write created nothing");
            } else {
                assertEquals(201, beyond.statusCode(), "the 21st write, in the next second: " + beyond.asString());
            }
        }
        assertTrue(refusedTheWriteBeyond, "the 21st write of a second must be refused with 429");
        var omar = DemoLogin.user("Omar");
        Api.configurator(omar); // another user is not limited by Sara's writes
    }

    private int configuratorCount() {
        return index.configuratorIds().await().atMost(Duration.ofSeconds(10)).size();
    }

    private static void awaitStartOfASecond() {
        await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(5))
                .until(() -> System.currentTimeMillis() % 1000 < 50);
    }

    /** The documented default, which the test profile raises for every other test. */
    public static class DefaultWriteRate implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("editlock.limits.rest.writes-per-second", "20");
        }
    }
}
