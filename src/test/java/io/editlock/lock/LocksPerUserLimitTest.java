package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.config.EditlockConfig;
import io.editlock.support.BusyUser;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: one user holds at most {@code editlock.limits.locks-per-user-per-configurator}
 * locks (default 50) in one configurator. A request for one more is refused with {@code lock-failed}
 * LIMIT_EXCEEDED and changes nothing; a re-entry, another user and another configurator are not
 * affected, and a page released makes room again. Every decision in a configurator reads its locks: without
 * the limit one user could make every request there slow by holding thousands. The lock rate is lifted
 * here ({@link BusyUser.Unlimited}), so that filling up to the limit meets no other limit.
 */
@QuarkusTest
@TestProfile(BusyUser.Unlimited.class)
class LocksPerUserLimitTest {

    private static final List<String> PAGES = List.of("filters", "dependencies", "attributes");
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockService locks;

    @Inject
    EditlockConfig config;

    @Test
    void oneUserHoldsAtMostTheLimitInOneConfigurator() {
        int limit = config.limits().locksPerUserPerConfigurator();
        long c = Fixtures.configurator(store);
        List<Map<String, Object>> pages = new ArrayList<>();
        while (pages.size() < limit + 2) {
            long item = Fixtures.item(store, c);
            PAGES.forEach(page -> pages.add(Map.of("itemId", item, "page", page)));
        }
        try (WsClient sara = WsClient.connect(base, DemoLogin.user("Sara").token());
                WsClient omar = WsClient.connect(base, DemoLogin.user("Omar").token())) {
            List<String> refs = new ArrayList<>();
            pages.subList(0, limit).forEach(page -> refs.add(sara.send("lock-item-subresource", page)));
            refs.forEach(ref -> assertEquals(
                    "lock-acquired", sara.reply(ref).path("event").asText(), "up to the limit, pages are granted"));
            Set<String> held = held(c);
            assertEquals(limit, held.size());

            Map<String, Object> next = pages.get(limit);
            record Asked(String event, Map<String, Object> data) {}
            List<Asked> beyond = List.of(
                    new Asked("lock-item-subresource", next),
                    new Asked("lock-variables", Map.of("configuratorId", c)),
                    new Asked("lock-configurator", Map.of("configuratorId", c)),
                    new Asked("wait-for", Map.of("resource", itemPage(next))));
            for (Asked asked : beyond) {
                JsonNode reply = sara.request(asked.event(), asked.data());
                assertEquals("lock-failed", reply.path("event").asText(), asked + ": " + reply);
                JsonNode data = reply.path("data");
                assertEquals("LIMIT_EXCEEDED", data.path("code").asText(), asked + ": " + reply);
                assertEquals(c, data.path("resource").path("configuratorId").asLong(), asked + ": " + reply);
                assertFalse(data.path("message").asText().isBlank(), "the refusal says why: " + reply);
                assertEquals(held, held(c), asked + " changed nothing in the store");
            }

            JsonNode first = sara.request("lock-item-subresource", pages.get(0));
            assertEquals("lock-acquired", first.path("event").asText(), "a re-entry is no new lock: " + first);
            assertEquals(
                    "lock-acquired",
                    omar.request("lock-item-subresource", next).path("event").asText(),
                    "the limit is one user's: another user still gets a page");
            long d = Fixtures.configurator(store);
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-variables", Map.of("configuratorId", d))
                            .path("event")
                            .asText(),
                    "the limit is per configurator");

            assertEquals(
                    "lock-released",
                    sara.request("unlock-item-subresource", pages.get(0))
                            .path("event")
                            .asText());
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-item-subresource", pages.get(limit + 1))
                            .path("event")
                            .asText(),
                    "a page released makes room for another");
        }
    }

    /** The configurator's locks in the store: field and fencing token of each. */
    private Set<String> held(long configuratorId) {
        return locks.locks(configuratorId).await().atMost(WAIT).stream()
                .map(lock -> lock.resource().canonical() + "#" + lock.token() + "@" + lock.ownerUserId())
                .collect(Collectors.toSet());
    }

    private static Map<String, Object> itemPage(Map<String, Object> page) {
        return Map.of("type", "item-subresource", "itemId", page.get("itemId"), "page", page.get("page"));
    }
}
