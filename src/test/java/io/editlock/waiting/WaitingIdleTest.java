package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.LockService;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §6, §14: a waiter who sends nothing for the idle timeout leaves the line and is told
 * so ({@code not-waiting}, reason {@code idle}); those behind move up.
 */
@QuarkusTest
@TestProfile(WaitingIdleTest.ShortIdle.class)
class WaitingIdleTest {

    public static class ShortIdle implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("editlock.session.idle-timeout", "3s", "editlock.session.sweep-interval", "250ms");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockService locks;

    @Test
    void anIdleWaiterLeavesTheLine() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        Map<String, Object> resource =
                Map.of("resource", Map.of("type", "item-subresource", "itemId", item, "page", "filters"));
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient tom = WsClient.connect(base, DemoLogin.user("Tom").token());
                WsClient omar = WsClient.connect(base, DemoLogin.user("Omar").token())) {
            sara.welcome();
            tom.welcome();
            omar.welcome();
            sara.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
            assertEquals(
                    1,
                    tom.request("wait-for", resource)
                            .path("data")
                            .path("position")
                            .asInt());
            assertEquals(
                    2,
                    omar.request("wait-for", resource)
                            .path("data")
                            .path("position")
                            .asInt());
            // Sara and Omar stay active; Tom sends nothing.
            JsonNode moved = Awaitility.await()
                    .atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(500))
                    .until(
                            () -> {
                                sara.request("touch", Map.of());
                                omar.request("touch", Map.of());
                                return omar.events("queue-updated").stream().findFirst();
                            },
                            Optional::isPresent)
                    .get();
            assertEquals(1, moved.path("data").path("position").asInt());
            JsonNode left = tom.awaitEvent("not-waiting");
            assertEquals("idle", left.path("data").path("reason").asText(), "Tom is told why: " + left);
            assertEquals(item, left.path("data").path("resource").path("itemId").asLong(), left.toString());
            assertTrue(left.path("ref").isMissingNode(), "Tom asked nothing: " + left);
            assertEquals(
                    "lock-acquired",
                    sara.reply(sara.send("lock-item-subresource", Map.of("itemId", item, "page", "filters")))
                            .path("event")
                            .asText(),
                    "Sara's own lock is untouched");
            sara.request("unlock-item-subresource", Map.of("itemId", item, "page", "filters"));
            omar.awaitEvent(frame -> frame.path("event").asText().equals("lock-acquired")
                    && frame.path("data").path("queued").asBoolean());
            assertTrue(tom.frames(frame -> frame.path("data").path("queued").asBoolean())
                    .isEmpty());
        }
    }

    /**
     * docs/protocol.md §4: the last {@code lock-updated} of a configurator shows its state after its last
     * change, also when its holder and the one waiter for the page go idle in the same sweep: the
     * release and the line's change are made one after the other, and must reach the watcher in that
     * order. Several configurators at once, so that no lucky timing can pass it.
     */
    @Test
    void theLastLockUpdatedIsTheStateAfterHolderAndWaiterWentIdleTogether() {
        int configurators = 8;
        List<Long> ids = new ArrayList<>();
        List<WsClient> users = new ArrayList<>();
        try (WsClient watcher = WsClient.connect(base, DemoLogin.user("Lea").token())) {
            for (int i = 0; i < configurators; i++) {
                long c = Fixtures.configurator(store);
                ids.add(c);
                watcher.request("watch", Map.of("configuratorId", c));
                WsClient holder =
                        WsClient.connect(base, DemoLogin.user("Holder").token());
                WsClient waiter =
                        WsClient.connect(base, DemoLogin.user("Waiter").token());
                users.add(holder);
                users.add(waiter);
                assertEquals(
                        "lock-acquired",
                        holder.request("lock-variables", Map.of("configuratorId", c))
                                .path("event")
                                .asText());
                Map<String, Object> variables = Map.of("resource", Map.of("type", "variables", "configuratorId", c));
                assertEquals(
                        "queued",
                        waiter.request("wait-for", variables).path("event").asText());
            }
            // From here all of them send nothing: they go idle together.
            users.forEach(user -> user.request("touch", Map.of()));

            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> ids.stream()
                            .allMatch(c -> locks.locks(c)
                                    .await()
                                    .atMost(Duration.ofSeconds(5))
                                    .isEmpty()));
            for (long c : ids) {
                Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                    List<JsonNode> updates =
                            watcher.frames(frame -> frame.path("event").asText().equals("lock-updated")
                                    && frame.path("data").path("configuratorId").asLong() == c);
                    JsonNode last = updates.get(updates.size() - 1).path("data");
                    assertTrue(
                            last.path("locks").isEmpty() && last.path("waiting").isMissingNode(),
                            "configurator " + c + ": nobody holds or waits for anything, yet the last lock-updated is "
                                    + last);
                });
            }
        } finally {
            users.forEach(WsClient::close);
        }
    }
}
