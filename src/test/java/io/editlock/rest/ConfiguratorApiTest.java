package io.editlock.rest;

import static io.editlock.support.Api.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The configurator store over REST, with nobody holding locks: shapes, status codes, Location, cascades. */
@QuarkusTest
class ConfiguratorApiTest {

    private DemoLogin.TestUser sara;

    @BeforeEach
    void login() {
        sara = DemoLogin.user("Sara");
    }

    @Test
    void createsAnswer201WithTheEntityAndItsLocation() {
        var created = as(sara).body(Map.of("name", "Bike"))
                .post("/api/configurators")
                .then()
                .statusCode(201)
                .body("name", equalTo("Bike"))
                .body("createdAt", notNullValue())
                .extract();
        long c = created.jsonPath().getLong("id");
        assertThat(created.header("Location"), equalTo("/api/configurators/" + c));
        as(sara).body(Map.of("name", "Frame"))
                .post("/api/configurators/" + c + "/items")
                .then()
                .statusCode(201)
                .header("Location", equalTo("/api/items/" + lastItem(c)))
                .body("configuratorId", equalTo((int) c))
                .body("parentItemId", nullValue());
        as(sara).get("/api/configurators?after=" + (c - 1))
                .then()
                .statusCode(200)
                .body("id", hasItem((int) c));
    }

    @Test
    void theTreeHoldsEveryPageAndTheVariables() {
        long c = Api.configurator(sara);
        long frame = Api.item(sara, c, null);
        long fork = Api.item(sara, c, frame);
        long filter = Api.filter(sara, fork);
        long dependency = Api.dependency(sara, fork, frame);
        long value = Api.attributeValue(sara, fork);
        long variable = Api.variable(sara, c);
        as(sara).get("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].id", equalTo((int) frame))
                .body("items[0].children[0].id", equalTo((int) fork))
                .body("items[0].children[0].parentItemId", equalTo((int) frame))
                .body("items[0].children[0].filters[0].id", equalTo((int) filter))
                .body("items[0].children[0].filters[0].expression", equalTo("color == 'red'"))
                .body("items[0].children[0].dependencies[0].id", equalTo((int) dependency))
                .body("items[0].children[0].dependencies[0].targetItemId", equalTo((int) frame))
                .body("items[0].children[0].attributeValues[0].id", equalTo((int) value))
                .body("variables.id", contains((int) variable))
                .body("variables[0].formula", equalTo("a + b"));
        as(sara).get("/api/filters/" + filter).then().statusCode(200).body("itemId", equalTo((int) fork));
    }

    @Test
    void patchesAnswer200WithTheChangedEntityAndDeletes204() {
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        long dependency = Api.dependency(sara, item, item);
        as(sara).body(Map.of("name", "Renamed"))
                .patch("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .body("name", equalTo("Renamed"));
        as(sara).body(Map.of("name", "Wheel"))
                .patch("/api/items/" + item)
                .then()
                .statusCode(200)
                .body("name", equalTo("Wheel"));
        as(sara).body(Map.of("effect", "show"))
                .patch("/api/dependencies/" + dependency)
                .then()
                .statusCode(200)
                .body("effect", equalTo("show"))
                .body("targetItemId", equalTo((int) item));
        as(sara).delete("/api/dependencies/" + dependency).then().statusCode(204);
        as(sara).get("/api/dependencies/" + dependency).then().statusCode(404);
        as(sara).delete("/api/configurators/" + c).then().statusCode(204);
        as(sara).get("/api/configurators/" + c).then().statusCode(404);
        as(sara).get("/api/items/" + item).then().statusCode(404);
    }

    @Test
    void deletingAnItemDeletesItsSubtreeAndItsEntries() {
        long c = Api.configurator(sara);
        long top = Api.item(sara, c, null);
        long child = Api.item(sara, c, top);
        long grandchild = Api.item(sara, c, child);
        long other = Api.item(sara, c, null);
        long filter = Api.filter(sara, grandchild);
        as(sara).delete("/api/items/" + child).then().statusCode(204);
        as(sara).get("/api/items/" + grandchild).then().statusCode(404);
        as(sara).get("/api/filters/" + filter).then().statusCode(404);
        as(sara).get("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .body("items.id", contains((int) top, (int) other))
                .body("items[0].children", hasSize(0));
    }

    @Test
    void invalidBodiesAre400WithAMessage() {
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        as(sara).body(Map.of())
                .post("/api/configurators")
                .then()
                .statusCode(400)
                .body("message", equalTo("name is required"));
        as(sara).body(Map.of("name", "  "))
                .post("/api/configurators")
                .then()
                .statusCode(400)
                .body("message", equalTo("name must not be blank"));
        as(sara).body(Map.of("name", 5))
                .patch("/api/items/" + item)
                .then()
                .statusCode(400)
                .body("message", equalTo("name must be a string"));
        as(sara).body("{not json")
                .post("/api/configurators")
                .then()
                .statusCode(400)
                .body("message", notNullValue());
        as(sara).body(Map.of("name", "x", "parentItemId", "7"))
                .post("/api/configurators/" + c + "/items")
                .then()
                .statusCode(400)
                .body("message", equalTo("parentItemId must be an item id (a positive integer)"));
        as(sara).body(Map.of("name", "x", "parentItemId", 999_999_999))
                .post("/api/configurators/" + c + "/items")
                .then()
                .statusCode(400)
                .body("message", equalTo("parentItemId 999999999 is not an item of configurator " + c));
        as(sara).body(Map.of("effect", "hide"))
                .post("/api/items/" + item + "/dependencies")
                .then()
                .statusCode(400)
                .body("message", equalTo("targetItemId is required"));
        as(sara).body(Map.of())
                .patch("/api/filters/" + Api.filter(sara, item))
                .then()
                .statusCode(400)
                .body("message", equalTo("nothing to change: send at least one of expression"));
        as(sara).body(Map.of("colour", "red"))
                .post("/api/items/" + item + "/filters")
                .then()
                .statusCode(400)
                .body("message", equalTo("unknown field 'colour' (expected expression)"));
    }

    /**
     * docs/rest-api.md: a path id that is not an id is an unknown id, also when it is written in another
     * script's digits (full-width, Arabic-Indic, Devanagari) that read as the id of something that exists.
     */
    @ParameterizedTest(name = "digits from {0}")
    @ValueSource(chars = {'\uFF10', '\u0660', '\u0966'})
    void idsInOtherDigitsAreUnknownIds(char zero) {
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        long filter = Api.filter(sara, item);
        as(sara).delete("/api/items/" + digits(item, zero)).then().statusCode(404);
        as(sara).get("/api/configurators/" + digits(c, zero)).then().statusCode(404);
        as(sara).body(Map.of("expression", "x"))
                .patch("/api/filters/" + digits(filter, zero))
                .then()
                .statusCode(404);
        as(sara).get("/api/items/" + item).then().statusCode(200);
        as(sara).get("/api/filters/" + filter).then().statusCode(200).body("expression", equalTo("color == 'red'"));
    }

    /** The id written with the digits that start at {@code zero}. */
    private static String digits(long id, char zero) {
        StringBuilder text = new StringBuilder();
        Long.toString(id).chars().forEach(digit -> text.append((char) (zero + digit - '0')));
        return text.toString();
    }

    @Test
    void unknownIdsAre404() {
        as(sara).get("/api/configurators/999999999")
                .then()
                .statusCode(404)
                .body("message", equalTo("No configurator 999999999"));
        as(sara).body(Map.of("name", "x"))
                .patch("/api/items/999999999")
                .then()
                .statusCode(404)
                .body("message", equalTo("No item 999999999"));
        as(sara).body(Map.of("expression", "x"))
                .patch("/api/filters/abc")
                .then()
                .statusCode(404);
        as(sara).delete("/api/variables/999999999").then().statusCode(404);
        as(sara).get("/api/configurators/999999999/locks").then().statusCode(404);
        given().get("/api/configurators").then().statusCode(401);
    }

    private long lastItem(long c) {
        return as(sara).get("/api/configurators/" + c).jsonPath().getLong("items[-1].id");
    }
}
