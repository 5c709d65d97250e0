package io.editlock.ops;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.LogToFile;
import io.editlock.support.WsClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Neither a start nor the first connections of the event loops log "This Gauge has been already
 * registered": every meter is registered once, and the Redis pool that serves the commands shows
 * under the client's name.
 */
@QuarkusTest
@TestProfile(LogToFile.class)
class MetersRegisteredOnceTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    MeterRegistry meters;

    @Inject
    ConfiguratorStore store;

    @Inject
    PipelinedRedis pipelined;

    @Inject
    ReactiveRedisDataSource redis;

    @Test
    void startAndFirstLocksLogNoSecondRegistrationOfAMeter() throws IOException {
        // The first lock requests open the Redis connections of the event loops: their meters too.
        for (int i = 0; i < 4; i++) {
            long configurator = Fixtures.configurator(store);
            try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
                sara.request("lock-configurator", Map.of("configuratorId", configurator));
            }
        }
        List<String> warnings = Files.readAllLines(LogToFile.LOG).stream()
                .filter(line -> line.contains("has been already registered"))
                .toList();
        assertEquals(List.of(), warnings, "meters registered twice");
    }

    /**
     * A pipelined connection that Redis drops is replaced by a client of the same name: the meters of
     * the one that is gone (its connection's and its pool's) make way for the new one's.
     */
    @Test
    void connectionsReopenedAfterRedisDroppedThemRegisterTheirMetersOnce() throws IOException {
        long configurator = Fixtures.configurator(store);
        pipelined.execute(Command.PING).await().atMost(Duration.ofSeconds(5));
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            sara.request("lock-configurator", Map.of("configuratorId", configurator));
            for (int round = 0; round < 3; round++) {
                redis.execute(Command.CLIENT, "KILL", "TYPE", "normal", "SKIPME", "yes")
                        .await()
                        .atMost(Duration.ofSeconds(5));
                await("commands from a worker to work again")
                        .atMost(Duration.ofSeconds(10))
                        .ignoreExceptions()
                        .until(() -> pipelined.execute(Command.PING).await().atMost(Duration.ofSeconds(2)) != null);
                await("lock requests to work again")
                        .atMost(Duration.ofSeconds(10))
                        .until(
                                () -> sara.request("lock-configurator", Map.of("configuratorId", configurator)),
                                reply -> "lock-acquired"
                                        .equals(reply.path("event").asText()));
            }
        }
        List<String> warnings = Files.readAllLines(LogToFile.LOG).stream()
                .filter(line -> line.contains("has been already registered"))
                .toList();
        assertEquals(List.of(), warnings, "meters registered twice");
    }

    @Test
    void theDefaultRedisPoolHasItsMetersUnderItsOwnName() {
        assertTrue(
                meters.find("redis.pool.queue.size")
                                .tag("pool.name", "<default>")
                                .gauge()
                        != null,
                "the default client's pool queue gauge: "
                        + meters.find("redis.pool.queue.size").gauges());
    }
}
