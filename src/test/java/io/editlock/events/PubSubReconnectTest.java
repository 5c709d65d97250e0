package io.editlock.events;

import static io.editlock.support.Api.as;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.LockKeys;
import io.editlock.session.NodeIdentity;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node's pub/sub connections end (Redis restarted, failed over, or cut them off, here with
 * {@code CLIENT KILL TYPE pubsub}): every subscription comes back by itself, watchers hear changes
 * again, and what they may have missed is made up for (docs/protocol.md §4, §8).
 */
@QuarkusTest
class PubSubReconnectTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    NodeIdentity node;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void everySubscriptionComesBackAndWatchersHearChangesAgain() {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        WsClient watcher = sockets.connect(base, DemoLogin.user("Omar"));
        watcher.request("watch", Map.of("configuratorId", c));
        List<String> channels =
                List.of(keys.lockEventsChannel(), keys.contentEventsChannel(), keys.nodeInbox(node.id()));
        await().atMost(WAIT).until(() -> channels.stream().allMatch(channel -> subscribers(channel) >= 1));

        redis.execute(Command.CLIENT, "KILL", "TYPE", "pubsub").await().atMost(WAIT);

        await("every subscription back")
                .atMost(WAIT)
                .until(() -> channels.stream().allMatch(channel -> subscribers(channel) >= 1));
        // What the watcher may have missed meanwhile: the configurator's state, and a notice to read it again.
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("content-changed")
                && frame.path("data").path("entity").asText().equals("configurator")
                && frame.path("data").path("id").asLong() == c);

        watcher.clear();
        as(sara).body(Map.of("expression", "a > 1"))
                .post("/api/items/" + item + "/filters")
                .then()
                .statusCode(201);
        JsonNode changed = watcher.awaitEvent("content-changed");
        assertEquals("filter", changed.path("data").path("entity").asText(), changed.toString());
        WsClient saraSocket = sockets.connect(base, sara);
        saraSocket.request("lock-configurator", Map.of("configuratorId", c));
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data").path("locks").size() == 1);
    }

    private long subscribers(String channel) {
        return redis.execute(Command.PUBSUB, "NUMSUB", channel)
                .await()
                .atMost(WAIT)
                .get(1)
                .toLong();
    }
}
