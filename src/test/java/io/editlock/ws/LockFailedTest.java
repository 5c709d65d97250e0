package io.editlock.ws;

import static io.editlock.support.LockFrames.assertExactlyOneReply;
import static io.editlock.support.LockFrames.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: a refused lock request is answered with {@code lock-failed}: who holds what
 * blocks it ({@code LOCKED}), or that the configurator or item does not exist ({@code NOT_FOUND}).
 */
@QuarkusTest
class LockFailedTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Test
    void lockedRefusalNamesTheHolderAndTheBlockingLock() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token());
                WsClient o = WsClient.connect(base, DemoLogin.user("Omar").token())) {
            assertEquals("lock-acquired", event(s.request("lock-configurator", Map.of("configuratorId", c))));

            String ref = o.send("lock-item-subresource", Map.of("itemId", item, "page", "dependencies"));
            JsonNode failed = o.reply(ref);
            JsonNode data = failed.path("data");
            assertEquals("lock-failed", event(failed), "a page of a configurator another user holds: " + failed);
            assertEquals("LOCKED", data.path("code").asText(), "code: " + failed);
            assertEquals("Currently edited by Sara", data.path("message").asText(), "message: " + failed);
            assertEquals("Sara", data.path("lockedBy").asText(), "lockedBy: " + failed);
            assertEquals(sara.id(), data.path("lockedByUserId").asText(), "lockedByUserId: " + failed);
            JsonNode resource = data.path("resource");
            assertEquals(
                    "item-subresource",
                    resource.path("type").asText(),
                    "resource must be what was requested: " + failed);
            assertEquals(item, resource.path("itemId").asLong(), "resource.itemId: " + failed);
            assertEquals("dependencies", resource.path("page").asText(), "resource.page: " + failed);
            assertEquals(
                    c, resource.path("configuratorId").asLong(), "the server knows the item's configurator: " + failed);
            JsonNode blocking = data.path("blocking");
            assertEquals(
                    "configurator",
                    blocking.path("resource").path("type").asText(),
                    "blocking must be Sara's lock: " + failed);
            assertEquals(c, blocking.path("resource").path("configuratorId").asLong(), "blocking.resource: " + failed);
            assertEquals(sara.id(), blocking.path("ownerUserId").asText(), "blocking.ownerUserId: " + failed);
            assertEquals("Sara", blocking.path("ownerUserName").asText(), "blocking.ownerUserName: " + failed);
            Instant.parse(blocking.path("acquiredAt").asText());
            Instant.parse(blocking.path("expiresAt").asText());
            assertFalse(blocking.has("token"), "another user's fencing token must never be shown: " + failed);
            assertExactlyOneReply(o, ref);
        }
    }

    /**
     * docs/protocol.md §4: when several locks of others block a request, the refusal names one, always
     * the same: the configurator lock, then the variables lock, then the item page that sorts first.
     */
    @Test
    void aRequestBlockedBySeveralLocksNamesTheWidest() {
        long c = Fixtures.configurator(store);
        long first = Fixtures.item(store, c);
        long second = Fixtures.item(store, c);
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient o = WsClient.connect(base, DemoLogin.user("Omar").token());
                WsClient l = WsClient.connect(base, DemoLogin.user("Lea").token())) {
            assertEquals(
                    "lock-acquired",
                    event(l.request("lock-item-subresource", Map.of("itemId", second, "page", "filters"))));
            assertEquals(
                    "lock-acquired",
                    event(l.request("lock-item-subresource", Map.of("itemId", first, "page", "filters"))));
            assertEquals("lock-acquired", event(o.request("lock-variables", Map.of("configuratorId", c))));

            JsonNode byVariables = s.request("lock-configurator", Map.of("configuratorId", c));
            assertEquals(
                    "Omar", byVariables.path("data").path("lockedBy").asText(), "the variables first: " + byVariables);
            assertEquals(
                    "variables",
                    byVariables
                            .path("data")
                            .path("blocking")
                            .path("resource")
                            .path("type")
                            .asText(),
                    "blocking: " + byVariables);

            assertEquals("lock-released", event(o.request("unlock-variables", Map.of("configuratorId", c))));
            JsonNode byPage = s.request("lock-configurator", Map.of("configuratorId", c));
            assertEquals("Lea", byPage.path("data").path("lockedBy").asText(), "then a page: " + byPage);
            long sortsFirst = ("i:" + first + ":filters").compareTo("i:" + second + ":filters") < 0 ? first : second;
            assertEquals(
                    sortsFirst,
                    byPage.path("data")
                            .path("blocking")
                            .path("resource")
                            .path("itemId")
                            .asLong(),
                    "the page whose lock field sorts first: " + byPage);
        }
    }

    @Test
    void unknownItemOrConfiguratorIsNotFound() {
        long unknown = 9_007_199_254_740_991L;
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            for (String event : List.of("lock-configurator", "lock-variables")) {
                String ref = s.send(event, Map.of("configuratorId", unknown));
                JsonNode failed = s.reply(ref);
                assertEquals("lock-failed", event(failed), event + " of an unknown configurator: " + failed);
                assertEquals("NOT_FOUND", failed.path("data").path("code").asText(), "code: " + failed);
                assertEquals(
                        unknown,
                        failed.path("data")
                                .path("resource")
                                .path("configuratorId")
                                .asLong(),
                        "resource: " + failed);
                assertExactlyOneReply(s, ref);
            }
            String ref = s.send("lock-item-subresource", Map.of("itemId", unknown, "page", "filters"));
            JsonNode failed = s.reply(ref);
            assertEquals("lock-failed", event(failed), "an unknown item: " + failed);
            assertEquals("NOT_FOUND", failed.path("data").path("code").asText(), "code: " + failed);
            JsonNode resource = failed.path("data").path("resource");
            assertEquals("item-subresource", resource.path("type").asText(), "resource: " + failed);
            assertEquals(unknown, resource.path("itemId").asLong(), "resource.itemId: " + failed);
            assertEquals("filters", resource.path("page").asText(), "resource.page: " + failed);
            assertFalse(resource.has("configuratorId"), "an item that does not exist has no configuratorId: " + failed);
            assertExactlyOneReply(s, ref);
        }
    }
}
