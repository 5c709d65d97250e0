package io.editlock.ws;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lock requests share one pipelined Redis connection per event loop. When Redis drops those
 * connections (CLIENT KILL: a failover, a proxy, an idle timeout), the next requests open new ones
 * by themselves: at most the requests in flight at that moment are answered UNAVAILABLE, and
 * nothing is granted twice.
 */
@QuarkusTest
class PipelinedConnectionLossTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    ReactiveRedisDataSource redis;

    @Test
    void killedConnectionsAreReplacedAndLockingGoesOn() {
        long c = Fixtures.configurator(store);
        long d = Fixtures.configurator(store);
        var sara = DemoLogin.user("Sara");
        var omar = DemoLogin.user("Omar");
        try (WsClient s = WsClient.connect(base, sara.token());
                WsClient o = WsClient.connect(base, omar.token())) {
            s.welcome();
            o.welcome();
            assertEquals(
                    "lock-acquired",
                    s.request("lock-configurator", Map.of("configuratorId", c))
                            .path("event")
                            .asText());

            long killed = redis.execute(Command.CLIENT, "KILL", "TYPE", "normal", "SKIPME", "yes")
                    .await()
                    .atMost(Duration.ofSeconds(5))
                    .toLong();
            assertTrue(killed > 0, "the server's Redis connections must have been there to kill");

            // Omar is refused (not granted, not UNAVAILABLE for long): the store still knows Sara's lock.
            JsonNode refused = await("lock requests to work again after the connections were killed")
                    .atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(100))
                    .until(
                            () -> o.request("lock-configurator", Map.of("configuratorId", c)),
                            reply -> !"UNAVAILABLE"
                                    .equals(reply.path("data").path("code").asText()));
            assertEquals("LOCKED", refused.path("data").path("code").asText(), "Sara still holds it: " + refused);
            assertEquals(
                    "lock-acquired",
                    o.request("lock-configurator", Map.of("configuratorId", d))
                            .path("event")
                            .asText(),
                    "a free configurator is granted again");
            assertEquals(
                    "lock-released",
                    s.request("unlock-configurator", Map.of("configuratorId", c))
                            .path("event")
                            .asText(),
                    "an unlock works again");
        }
    }
}
