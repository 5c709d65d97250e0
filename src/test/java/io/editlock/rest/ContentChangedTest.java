package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Holding;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** docs/protocol.md §8: every successful write reaches the configurator's watchers as one content-changed. */
@QuarkusTest
class ContentChangedTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void everyWriteIsAnnouncedOnceToWatchers() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser omar = DemoLogin.user("Omar");
        long c = Api.configurator(sara);
        try (WsClient watcher = WsClient.connect(base, omar.token())) {
            watcher.request("watch", Map.of("configuratorId", c));
            long top = Api.item(sara, c, null);
            long child = Api.item(sara, c, top);
            long filter = Api.filter(sara, child);
            as(sara).body(Map.of("expression", "y"))
                    .patch("/api/filters/" + filter)
                    .then()
                    .statusCode(200);
            long variable = Api.variable(sara, c);
            as(sara).delete("/api/variables/" + variable).then().statusCode(204);
            as(sara).delete("/api/items/" + top).then().statusCode(204);
            as(sara).body(Map.of("name", "n"))
                    .patch("/api/configurators/" + c)
                    .then()
                    .statusCode(200);

            List<String> expected = List.of(
                    "item " + top + " created",
                    "item " + child + " created",
                    "filter " + filter + " created",
                    "filter " + filter + " updated",
                    "variable " + variable + " created",
                    "variable " + variable + " deleted",
                    "item " + top + " deleted",
                    "configurator " + c + " updated");
            Awaitility.await().until(() -> watcher.events("content-changed").size() >= expected.size());
            List<String> seen = watcher.events("content-changed").stream()
                    .map(frame -> describe(c, frame))
                    .toList();
            assertEquals(expected, seen, "one content-changed per write, a cascading delete announces its root only");
        }
    }

    @Test
    void aRefusedWriteIsNotAnnounced() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser omar = DemoLogin.user("Omar");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        try (Holding holder = Holding.connect(base, omar)) {
            holder.configurator(c);
            as(sara).body(Map.of("expression", "x"))
                    .post("/api/items/" + item + "/filters")
                    .then()
                    .statusCode(423);
            as(omar).body(Map.of("name", "mine"))
                    .patch("/api/items/" + item)
                    .then()
                    .statusCode(200);
            JsonNode changed = holder.socket().awaitEvent("content-changed");
            assertEquals("item", changed.path("data").path("entity").asText());
            assertEquals(
                    1, holder.socket().events("content-changed").size(), "only the write that happened is announced");
        }
    }

    private static String describe(long c, JsonNode frame) {
        JsonNode data = frame.path("data");
        assertEquals(c, data.path("configuratorId").asLong(), "content-changed of another configurator: " + frame);
        return data.path("entity").asText() + " " + data.path("id").asLong() + " "
                + data.path("op").asText();
    }
}
