package io.editlock.rest;

import static io.editlock.support.Api.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Holding;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §11: when several things are wrong with a request, the first of 401, 403, 400, 404,
 * 423, 412 is the answer. And entry ids resolve to their own item's page.
 */
@QuarkusTest
class PrecedenceTest {

    private static final String UNKNOWN = "999999999";

    @TestHTTPResource("/")
    URI base;

    private TestUser sara;
    private TestUser omar;

    @BeforeEach
    void users() {
        sara = DemoLogin.user("Sara");
        omar = DemoLogin.user("Omar");
    }

    @Test
    void noOrBadTokenIs401BeforeEverythingElse() {
        given().contentType(ContentType.JSON)
                .header("Lock-Token", "abc")
                .body(Map.of("name", ""))
                .patch("/api/items/" + UNKNOWN)
                .then()
                .statusCode(401);
        given().auth()
                .oauth2("not-a-jwt")
                .contentType(ContentType.JSON)
                .header("Lock-Token", "abc")
                .body(Map.of())
                .patch("/api/items/" + UNKNOWN)
                .then()
                .statusCode(401);
        given().header("Lock-Token", "abc").delete("/api/locks/nonsense").then().statusCode(401);
        given().get("/api/configurators/" + UNKNOWN).then().statusCode(401);
    }

    @Test
    void missingAdminRoleIs403BeforeABadCanonicalOrAnUnknownLock() {
        as(sara).delete("/api/locks/nonsense").then().statusCode(403);
        as(sara).delete("/api/locks/configurator:" + UNKNOWN).then().statusCode(403);
    }

    @Test
    void invalidBodyOrLockTokenIs400BeforeUnknownIds() {
        as(sara).body(Map.of("name", " ")).patch("/api/items/" + UNKNOWN).then().statusCode(400);
        as(sara).body(Map.of()).patch("/api/filters/" + UNKNOWN).then().statusCode(400);
        as(sara).header("Lock-Token", "abc")
                .body(Map.of("name", "x"))
                .patch("/api/items/" + UNKNOWN)
                .then()
                .statusCode(400)
                .body("message", equalTo("Lock-Token must be a positive integer (the token of a lock you hold)"));
        as(sara).header("Lock-Token", "-5")
                .delete("/api/variables/" + UNKNOWN)
                .then()
                .statusCode(400);
        // A write that no lock guards still refuses a malformed token (§7), and creates nothing.
        long before = Api.configurator(sara);
        as(sara).header("Lock-Token", "abc")
                .body(Map.of("name", "never created"))
                .post("/api/configurators")
                .then()
                .statusCode(400);
        as(sara).get("/api/configurators?after=" + before)
                .then()
                .statusCode(200)
                .body("size()", equalTo(0));
        as(sara).header("Lock-Token", "7")
                .body(Map.of("name", "x"))
                .post("/api/configurators")
                .then()
                .statusCode(201);
        DemoLogin.TestUser admin = DemoLogin.user("Ada", "admin");
        as(admin).delete("/api/locks/item:5:colors").then().statusCode(400);
    }

    @Test
    void unknownIdsAre404() {
        as(sara).body(Map.of("name", "x")).patch("/api/items/" + UNKNOWN).then().statusCode(404);
        as(sara).body(Map.of("expression", "x"))
                .post("/api/items/" + UNKNOWN + "/filters")
                .then()
                .statusCode(404);
        as(sara).body(Map.of("name", "x", "formula", "1"))
                .post("/api/configurators/" + UNKNOWN + "/variables")
                .then()
                .statusCode(404);
        as(sara).delete("/api/configurators/" + UNKNOWN).then().statusCode(404);
        as(sara).body(Map.of("value", "x"))
                .patch("/api/attribute-values/" + UNKNOWN)
                .then()
                .statusCode(404);
        as(DemoLogin.user("Ada", "admin"))
                .delete("/api/locks/configurator:" + UNKNOWN)
                .then()
                .statusCode(404);
    }

    @Test
    void invalidBodyIs400AndStaleTokenIs423WhileAnotherUserHoldsTheLock() {
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        try (Holding other = Holding.connect(base, omar)) {
            other.configurator(c);
            as(sara).body(Map.of("name", ""))
                    .patch("/api/configurators/" + c)
                    .then()
                    .statusCode(400);
            as(sara).header("Lock-Token", "x1")
                    .body(Map.of("name", "y"))
                    .patch("/api/items/" + item)
                    .then()
                    .statusCode(400);
            as(sara).header("Lock-Token", "12345")
                    .body(Map.of("name", "y"))
                    .patch("/api/items/" + item)
                    .then()
                    .statusCode(423)
                    .body("lockedBy", equalTo("Omar"));
        }
    }

    @Test
    void entryIdsResolveToTheirOwnItemsPage() {
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        long otherItem = Api.item(sara, c, null);
        long filter = Api.filter(sara, item);
        long dependency = Api.dependency(sara, item, otherItem);
        long otherFilter = Api.filter(sara, otherItem);
        try (Holding other = Holding.connect(base, omar)) {
            other.page(item, "filters");
            as(sara).body(Map.of("expression", "a"))
                    .patch("/api/filters/" + filter)
                    .then()
                    .statusCode(423)
                    .body("resource.type", equalTo("item-subresource"))
                    .body("resource.itemId", equalTo((int) item))
                    .body("resource.page", equalTo("filters"))
                    .body("resource.configuratorId", equalTo((int) c));
            as(sara).delete("/api/filters/" + filter).then().statusCode(423);
            as(sara).body(Map.of("effect", "hide"))
                    .patch("/api/dependencies/" + dependency)
                    .then()
                    .statusCode(200);
            as(sara).body(Map.of("expression", "b"))
                    .patch("/api/filters/" + otherFilter)
                    .then()
                    .statusCode(200);
        }
    }
}
