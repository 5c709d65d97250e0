package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.support.Api;
import io.editlock.support.AuditLines;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Holding;
import io.editlock.support.WsClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** docs/protocol.md §8, §11: deleting a configurator or an item releases its deleter's own locks on it, reason deleted. */
@QuarkusTest
class DeleteReleasesLocksTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    MeterRegistry meters;

    @Test
    void deletingAConfiguratorReleasesEveryLockOfItsDeleterInIt() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser omar = DemoLogin.user("Omar");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        Api.filter(sara, item);
        try (Holding mine = Holding.connect(base, sara);
                WsClient watcher = WsClient.connect(base, omar.token())) {
            watcher.request("watch", Map.of("configuratorId", c));
            mine.configurator(c);
            mine.variables(c);
            mine.page(item, "filters");
            as(sara).delete("/api/configurators/" + c).then().statusCode(204);

            Awaitility.await().until(() -> watcher.events("lock-released").size() >= 3);
            List<String> released = watcher.events("lock-released").stream()
                    .map(DeleteReleasesLocksTest::describe)
                    .sorted()
                    .toList();
            assertEquals(List.of("configurator deleted", "item-subresource deleted", "variables deleted"), released);
            Awaitility.await().until(() -> mine.socket().events("lock-lost").size() >= 3);
            mine.socket()
                    .events("lock-lost")
                    .forEach(lost -> assertEquals(
                            "deleted", lost.path("data").path("reason").asText()));
            as(sara).get("/api/configurators/" + c).then().statusCode(404);
            as(sara).get("/api/configurators/" + c + "/locks").then().statusCode(404);
            as(sara).get("/api/items/" + item).then().statusCode(404);
            as(sara).get("/api/configurators?after=" + (c - 1))
                    .then()
                    .statusCode(200)
                    .body("id", not(hasItem((int) c)));
            JsonNode refused = mine.socket().request("lock-configurator", Map.of("configuratorId", c));
            assertEquals(
                    "NOT_FOUND", refused.path("data").path("code").asText(), "the configurator is gone: " + refused);
        }
    }

    /** docs/operations.md: every release, whatever its reason, is counted by reason and written to the audit log. */
    @Test
    void theLocksADeleteReleasesAreCountedAndAudited() {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        double before = releasedDeleted();
        try (AuditLines audit = AuditLines.capture();
                Holding mine = Holding.connect(base, sara)) {
            mine.page(item, "filters");
            as(sara).delete("/api/items/" + item).then().statusCode(204);
            audit.await("the item page's release", released("item:" + item + ":filters"));

            mine.variables(c);
            as(sara).delete("/api/configurators/" + c).then().statusCode(204);
            audit.await("the variables' release", released("configurator:" + c + ":variables"));
        }
        assertEquals(before + 2, releasedDeleted(), "releases with reason deleted");
    }

    private static Predicate<String> released(String resource) {
        return line -> line.startsWith("release resource=" + resource + " ") && line.contains(" reason=deleted ");
    }

    private double releasedDeleted() {
        return meters.get("editlock.lock.releases")
                .tag("reason", "deleted")
                .counter()
                .count();
    }

    @Test
    void deletingAnItemReleasesItsDeletersPageLocksInTheSubtreeOnly() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser omar = DemoLogin.user("Omar");
        long c = Api.configurator(sara);
        long top = Api.item(sara, c, null);
        long child = Api.item(sara, c, top);
        long beside = Api.item(sara, c, null);
        try (Holding mine = Holding.connect(base, sara);
                WsClient watcher = WsClient.connect(base, omar.token())) {
            watcher.request("watch", Map.of("configuratorId", c));
            mine.page(top, "filters");
            mine.page(child, "dependencies");
            mine.page(beside, "filters");
            as(sara).delete("/api/items/" + top).then().statusCode(204);

            Awaitility.await().until(() -> watcher.events("lock-released").size() >= 2);
            List<Long> releasedItems = watcher.events("lock-released").stream()
                    .peek(frame -> assertEquals(
                            "deleted", frame.path("data").path("reason").asText()))
                    .map(frame ->
                            frame.path("data").path("resource").path("itemId").asLong())
                    .sorted()
                    .toList();
            assertEquals(List.of(top, child), releasedItems);
            as(sara).get("/api/configurators/" + c + "/locks")
                    .then()
                    .statusCode(200)
                    .body("", hasSize(1))
                    .body("[0].resource.itemId", equalTo((int) beside));
            as(sara).get("/api/configurators/" + c).then().body("items.id", contains((int) beside));
        }
    }

    private static String describe(JsonNode frame) {
        return frame.path("data").path("resource").path("type").asText() + " "
                + frame.path("data").path("reason").asText();
    }
}
