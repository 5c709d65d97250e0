package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
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
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Lock discovery ({@code GET /api/configurators/{id}/locks}) and the admin's break-lock
 * ({@code DELETE /api/locks/{canonical}}): watchers get lock-released with reason admin, every
 * socket of the holder lock-lost.
 */
@QuarkusTest
class BreakLockTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void anAdminBreaksAnItemPageLock() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser omar = DemoLogin.user("Omar");
        TestUser ada = DemoLogin.user("Ada", "admin");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        try (Holding holder = Holding.connect(base, omar);
                WsClient secondTab = WsClient.connect(base, omar.token());
                WsClient watcher = WsClient.connect(base, sara.token())) {
            watcher.request("watch", Map.of("configuratorId", c));
            holder.page(item, "filters");
            as(sara).get("/api/configurators/" + c + "/locks")
                    .then()
                    .statusCode(200)
                    .body("", hasSize(1))
                    .body("[0].ownerUserName", equalTo("Omar"))
                    .body("[0].resource.itemId", equalTo((int) item))
                    .body("[0].token", nullValue());

            as(omar).delete("/api/locks/item:" + item + ":filters").then().statusCode(403);
            as(ada).delete("/api/locks/item:" + item + ":filters").then().statusCode(204);

            JsonNode released = watcher.awaitEvent("lock-released");
            assertEquals("admin", released.path("data").path("reason").asText());
            assertEquals(omar.id(), released.path("data").path("ownerUserId").asText());
            for (WsClient socket : new WsClient[] {holder.socket(), secondTab}) {
                JsonNode lost = socket.awaitEvent("lock-lost");
                assertEquals("admin", lost.path("data").path("reason").asText());
                assertEquals(
                        "filters",
                        lost.path("data").path("resource").path("page").asText());
            }
            as(sara).get("/api/configurators/" + c + "/locks")
                    .then()
                    .statusCode(200)
                    .body("", empty());
            as(ada).delete("/api/locks/item:" + item + ":filters").then().statusCode(404);
            as(sara).body(Map.of("expression", "x"))
                    .post("/api/items/" + item + "/filters")
                    .then()
                    .statusCode(201);
        }
    }

    @Test
    void anAdminBreaksConfiguratorAndVariablesLocks() {
        TestUser omar = DemoLogin.user("Omar");
        TestUser ada = DemoLogin.user("Ada", "admin");
        long c = Api.configurator(omar);
        long other = Api.configurator(omar);
        try (Holding holder = Holding.connect(base, omar)) {
            holder.configurator(c);
            holder.variables(other);
            as(ada).delete("/api/locks/configurator:" + c + ":variables").then().statusCode(404);
            as(ada).delete("/api/locks/configurator:" + c).then().statusCode(204);
            as(ada).delete("/api/locks/configurator:" + other + ":variables")
                    .then()
                    .statusCode(204);
            awaitLost(holder, 2);
            holder.socket()
                    .events("lock-lost")
                    .forEach(lost -> assertEquals(
                            "admin", lost.path("data").path("reason").asText()));
        }
    }

    @Test
    void unknownLocksAre404() {
        TestUser ada = DemoLogin.user("Ada", "admin");
        long c = Api.configurator(ada);
        as(ada).delete("/api/locks/configurator:" + c)
                .then()
                .statusCode(404)
                .body("message", equalTo("Nobody holds configurator:" + c));
        as(ada).delete("/api/locks/item:999999999:filters").then().statusCode(404);
        as(ada).get("/api/configurators/999999999/locks").then().statusCode(404);
    }

    private static void awaitLost(Holding holder, int count) {
        Awaitility.await().until(() -> holder.socket().events("lock-lost").size() >= count);
    }
}
