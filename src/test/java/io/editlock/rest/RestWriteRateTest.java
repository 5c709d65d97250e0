package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.CatalogIndex;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

    @Inject
    MeterRegistry meters;

    @Test
    void beyondTwentyWritesASecondAUserGets429WithRetryAfter() throws Exception {
        var sara = DemoLogin.user("Sara");
        ExecutorService writers = Executors.newFixedThreadPool(21);
        try {
            boolean refusedTheWriteBeyond = false;
            // 21 writes at once, early in a second; a burst that still crosses into the next second
            // gets a fresh window, so a few tries make sure one falls into a single second.
            for (int attempt = 0; attempt < 5 && !refusedTheWriteBeyond; attempt++) {
                int before = configuratorCount();
                double refusalsBefore = restWriteRefusals();
                awaitStartOfASecond();
                List<Future<Response>> sent = new ArrayList<>();
                for (int i = 0; i < 21; i++) {
                    String name = "burst-" + i;
                    sent.add(writers.submit(
                            () -> as(sara).body(Map.of("name", name)).post("/api/configurators")));
                }
                List<Response> answers = new ArrayList<>();
                for (Future<Response> answer : sent) {
                    answers.add(answer.get(60, TimeUnit.SECONDS));
                }
                List<Response> refused = answers.stream()
                        .filter(answer -> answer.statusCode() == 429)
                        .toList();
                long created = answers.stream()
                        .filter(answer -> answer.statusCode() == 201)
                        .count();
                assertEquals(21, created + refused.size(), "every write is created or refused with 429");
                assertTrue(refused.size() <= 1, "20 writes of a second are served; refused: " + refused.size());
                assertEquals(before + created, configuratorCount(), "a refused write creates nothing");
                assertEquals(
                        refused.size(),
                        (long) (restWriteRefusals() - refusalsBefore),
                        "each 429 is counted in editlock_limit_refusals_total{limit=\"rest-writes\"}");
                if (refused.size() == 1) {
                    Response beyond = refused.get(0);
                    assertEquals("1", beyond.header("Retry-After"), "a 429 says when to try again");
                    assertTrue(
                            beyond.jsonPath().getString("message").contains("20 writes a second"), beyond.asString());
                    refusedTheWriteBeyond = true;
                }
            }
            assertTrue(refusedTheWriteBeyond, "the 21st write of a second must be refused with 429");
        } finally {
            writers.shutdownNow();
        }
        Api.configurator(DemoLogin.user("Omar")); // another user is not limited by Sara's writes
    }

    private double restWriteRefusals() {
        Counter counter = meters.find("editlock.limit.refusals")
                .tag("limit", "rest-writes")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private int configuratorCount() {
        return index.configuratorIdsAfter(0, Integer.MAX_VALUE)
                .await()
                .atMost(Duration.ofSeconds(10))
                .size();
    }

    private static void awaitStartOfASecond() {
        await().atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(5))
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
