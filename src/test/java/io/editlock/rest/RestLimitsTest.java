package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.catalog.Entity;
import io.editlock.catalog.EntryStore;
import io.editlock.lock.Guard;
import io.editlock.lock.GuardType;
import io.editlock.lock.Page;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.Holding;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Limits of the REST API that keep one user from saturating the shared Redis, each at its boundary
 * (docs/rest-api.md, docs/configuration.md): 1,000 items per configurator, 200 entries per page,
 * 200-character names, pages of at most 100 configurators. A refused request writes nothing. The
 * write rate is {@link RestWriteRateTest}'s.
 */
@QuarkusTest
class RestLimitsTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    EntryStore entries;

    @Test
    void aConfiguratorTakesAThousandItemsAndNoMore() {
        long c = Fixtures.configurator(store);
        for (int i = 0; i < 999; i++) {
            Fixtures.item(store, c);
        }
        var sara = DemoLogin.user("Sara");
        try (Holding holding = Holding.connect(base, sara)) {
            holding.configurator(c);
            as(sara).body(Map.of("name", "the 1000th"))
                    .post("/api/configurators/" + c + "/items")
                    .then()
                    .statusCode(201);
            as(sara).body(Map.of("name", "the 1001st"))
                    .post("/api/configurators/" + c + "/items")
                    .then()
                    .statusCode(400)
                    .body("message", containsString("1000 items"));
        }
        as(sara).get("/api/configurators/" + c).then().statusCode(200).body("items", hasSize(1000));
    }

    @Test
    void aPageTakesTwoHundredEntriesAndNoMore() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        Guard filters = new Guard(GuardType.NONE, c, item, Page.FILTERS, "", OptionalLong.empty());
        for (int i = 0; i < 199; i++) {
            entries.add(filters, Entity.FILTER, Map.of("expression", "x == " + i))
                    .await()
                    .atMost(Duration.ofSeconds(10));
            entries.add(Guard.none(c), Entity.VARIABLE, Map.of("name", "v" + i, "formula", "1"))
                    .await()
                    .atMost(Duration.ofSeconds(10));
        }
        var sara = DemoLogin.user("Sara");
        try (Holding holding = Holding.connect(base, sara)) {
            holding.configurator(c);
            as(sara).body(Map.of("expression", "the 200th"))
                    .post("/api/items/" + item + "/filters")
                    .then()
                    .statusCode(201);
            as(sara).body(Map.of("expression", "the 201st"))
                    .post("/api/items/" + item + "/filters")
                    .then()
                    .statusCode(400)
                    .body("message", containsString("200 entries"));
            as(sara).body(Map.of("name", "v199", "formula", "1"))
                    .post("/api/configurators/" + c + "/variables")
                    .then()
                    .statusCode(201);
            as(sara).body(Map.of("name", "v200", "formula", "1"))
                    .post("/api/configurators/" + c + "/variables")
                    .then()
                    .statusCode(400)
                    .body("message", containsString("200 entries"));
        }
        as(sara).get("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .body("items[0].filters", hasSize(200))
                .body("variables", hasSize(200));
    }

    @Test
    void namesTakeTwoHundredCharactersAndNoMore() {
        var sara = DemoLogin.user("Sara");
        as(sara).body(Map.of("name", "n".repeat(200)))
                .post("/api/configurators")
                .then()
                .statusCode(201);
        as(sara).body(Map.of("name", "n".repeat(201)))
                .post("/api/configurators")
                .then()
                .statusCode(400)
                .body("message", containsString("at most 200 characters"));
    }

    @Test
    void theListComesInPagesOfAtMostAHundred() {
        var sara = DemoLogin.user("Sara");
        long first = Api.configurator(sara);
        long second = Api.configurator(sara);
        long third = Api.configurator(sara);
        as(sara).get("/api/configurators?limit=100").then().statusCode(200);
        as(sara).get("/api/configurators?limit=101")
                .then()
                .statusCode(400)
                .body("message", containsString("between 1 and 100"));
        as(sara).get("/api/configurators?limit=0").then().statusCode(400);
        as(sara).get("/api/configurators?after=x").then().statusCode(400);
        as(sara).get("/api/configurators?limit=0000000001")
                .then()
                .statusCode(200)
                .body("size()", equalTo(1));
        as(sara).get("/api/configurators?limit=1&limit=500")
                .then()
                .statusCode(400)
                .body("message", equalTo("limit must be given at most once"));
        as(sara).get("/api/configurators?limit=&limit=2")
                .then()
                .statusCode(400)
                .body("message", equalTo("limit must be given at most once"));
        as(sara).get("/api/configurators?after=0&after=" + first)
                .then()
                .statusCode(400)
                .body("message", equalTo("after must be given at most once"));
        // A full-width five is not an id, nor a page size (docs/rest-api.md: ids are written in 0-9).
        as(sara).queryParam("after", "\uFF15").get("/api/configurators").then().statusCode(400);
        as(sara).queryParam("limit", "\uFF15").get("/api/configurators").then().statusCode(400);
        assertTrue(
                as(sara).get("/api/configurators").jsonPath().getList("id").size() <= 100,
                "one page holds at most 100");

        Response page = as(sara).get("/api/configurators?after=" + (first - 1) + "&limit=2");
        assertEquals(List.of((int) first, (int) second), page.jsonPath().getList("id"), page.asString());
        assertEquals("</api/configurators?after=" + second + "&limit=2>; rel=\"next\"", page.header("Link"));
        Response last = as(sara).get("/api/configurators?after=" + second + "&limit=2");
        assertEquals(List.of((int) third), last.jsonPath().getList("id"), last.asString());
        assertEquals(null, last.header("Link"), "the last page names no next one");
    }
}
