package io.editlock.events;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.ListeningReadiness;
import io.editlock.redis.StoreDataWatch;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.FrozenRedis;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §6: every release is announced, also of locks the store lost with its data while
 * the node's connections stayed up (FLUSHALL, a fail-over to a replica behind): the holder gets its
 * lock-lost (reason expired) and the watchers a lock-updated without it, within a renew interval.
 */
@QuarkusTest
@TestProfile(StoreDataLostTest.PrivateRedis.class)
class StoreDataLostTest {

    /** A Redis of its own, which the test may flush, and a short look interval. */
    public static class PrivateRedis implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("editlock.lease.renew-interval", "1s");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(FrozenRedis.OwnRedis.class));
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    ListeningReadiness listening;

    @Inject
    StoreDataWatch dataWatch;

    @Test
    void locksTheStoreLostAreAnnouncedToHoldersAndWatchers() {
        long c = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient watcher = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            saraHoldsTheVariablesWatched(sara, watcher, c);

            redis.execute(Command.FLUSHALL).await().atMost(Duration.ofSeconds(5));

            JsonNode lost = sara.awaitEvent("lock-lost");
            assertEquals("expired", lost.path("data").path("reason").asText(), lost.toString());
            assertEquals(
                    "variables", lost.path("data").path("resource").path("type").asText(), lost.toString());
            watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                    && frame.path("data").path("configuratorId").asLong() == c
                    && frame.path("data").path("locks").isEmpty());
        }
    }

    /**
     * The data goes while the node hears nothing (Redis came back empty before the node's subscriptions
     * did): the catch-up when they are back tells it, once. A look at the store meanwhile must not tell
     * it too, or every watcher reads its configurators twice.
     */
    @Test
    void aLossWhileTheSubscriptionsAreDownIsToldOnceTheyAreBack() {
        long c = Fixtures.configurator(store);
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient watcher = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            saraHoldsTheVariablesWatched(sara, watcher, c);
            try {
                // Refused channels keep the node's subscriptions down, each attempt answered NOPERM.
                admin("ACL", "SETUSER", "default", "resetchannels");
                admin("CLIENT", "KILL", "TYPE", "pubsub");
                await().atMost(Duration.ofSeconds(5)).until(() -> !listening.hearsAll());
                // Past the first few attempts, the next one is seconds away (the back-off doubles from
                // 100 ms): Redis is back empty, the node does not hear it yet, and a look comes first.
                WsClient.stays(() -> !listening.hearsAll(), Duration.ofMillis(3300), "the channels are refused");
                redis.execute(Command.FLUSHALL).await().atMost(Duration.ofSeconds(5));

                assertFalse(
                        dataWatch.check().await().atMost(Duration.ofSeconds(5)),
                        "a look while the node hears nothing leaves the loss to the catch-up");
                assertEquals(List.of(), watcher.frames(StoreDataLostTest::configuratorChanged));
            } finally {
                admin("ACL", "SETUSER", "default", "allchannels");
            }

            watcher.awaitEvent(StoreDataLostTest::configuratorChanged, Duration.ofSeconds(15));
            JsonNode lost = sara.awaitEvent("lock-lost");
            assertEquals("expired", lost.path("data").path("reason").asText(), lost.toString());
            WsClient.stays(
                    () -> watcher.frames(StoreDataLostTest::configuratorChanged).size() == 1,
                    Duration.ofSeconds(3),
                    "one content-changed for one loss of the store's data");
        }
    }

    /** Sara locks the variables page, the watcher sees it, and the node has seen the store's data as it is now. */
    private static void saraHoldsTheVariablesWatched(WsClient sara, WsClient watcher, long c) {
        watcher.request("watch", Map.of("configuratorId", c));
        sara.request("lock-variables", Map.of("configuratorId", c));
        watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-updated")
                && frame.path("data").path("locks").size() == 1);
        WsClient.stays(() -> sara.events("lock-lost").isEmpty(), Duration.ofSeconds(2), "nothing lost yet");
    }

    private void admin(String... command) {
        redis.execute(command[0], Arrays.copyOfRange(command, 1, command.length))
                .await()
                .atMost(Duration.ofSeconds(5));
    }

    private static boolean configuratorChanged(JsonNode frame) {
        return frame.path("event").asText().equals("content-changed")
                && frame.path("data").path("entity").asText().equals("configurator");
    }
}
