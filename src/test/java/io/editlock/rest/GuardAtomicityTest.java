package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Holding;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.RepeatedTest;

/**
 * docs/protocol.md §8: "no write lands after another user's conflicting lock-acquired was sent". Omar adds
 * filters in a tight loop from several threads while Sara takes the configurator lock over the
 * WebSocket. The filters stored when her lock-acquired arrives are all there will ever be; every
 * write after it is refused, and every stored filter was acknowledged with 201.
 */
@QuarkusTest
class GuardAtomicityTest {

    private static final int WRITERS = 4;

    @TestHTTPResource("/")
    URI base;

    @RepeatedTest(5)
    void noWriteLandsAfterAConflictingGrant() throws Exception {
        TestUser sara = DemoLogin.user("Sara");
        TestUser omar = DemoLogin.user("Omar");
        long c = Api.configurator(omar);
        long item = Api.item(omar, c, null);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger created = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        List<Integer> unexpected = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try (Holding holder = Holding.connect(base, sara)) {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                writers.add(pool.submit(() -> {
                    while (!stop.get()) {
                        int status = as(omar).body(Map.of("expression", "x"))
                                .post("/api/items/" + item + "/filters")
                                .statusCode();
                        if (status == 201) {
                            created.incrementAndGet();
                        } else if (status == 423) {
                            refused.incrementAndGet();
                        } else {
                            unexpected.add(status);
                        }
                    }
                }));
            }
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> created.get() >= 5);

            holder.configurator(c);
            int storedAtGrant = filters(sara, c);

            int refusedAtGrant = refused.get();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> refused.get() >= refusedAtGrant + 2 * WRITERS);
            stop.set(true);
            for (Future<?> writer : writers) {
                writer.get(10, TimeUnit.SECONDS);
            }
            int storedAtEnd = filters(sara, c);

            assertTrue(unexpected.isEmpty(), "writes answered neither 201 nor 423: " + unexpected);
            assertTrue(storedAtGrant > 0, "no write landed before the grant: the race was not run");
            assertEquals(storedAtGrant, storedAtEnd, "a filter was stored after Sara's lock-acquired");
            assertEquals(created.get(), storedAtEnd, "every stored filter was acknowledged with 201, and only those");
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
    }

    private static int filters(TestUser reader, long c) {
        return as(reader)
                .get("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items[0].filters")
                .size();
    }
}
