package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/rest-api.md: "what a {@code GET} answered can be changed and sent back, for every entity" — the
 * read-only fields of the answer are ignored, a dangling {@code targetItemId} ("target deleted") included.
 */
@QuarkusTest
class GetBodySentBackTest {

    private DemoLogin.TestUser sara;

    @BeforeEach
    void login() {
        sara = DemoLogin.user("Sara");
    }

    @Test
    void aDependencyWhoseTargetWasDeletedCanBeSentBackWithItsDanglingTarget() {
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        long target = Api.item(sara, c, null);
        long other = Api.item(sara, c, null);
        long dependency = Api.dependency(sara, item, target);
        as(sara).delete("/api/items/" + target).then().statusCode(204);

        Map<String, Object> got = new HashMap<>(as(sara).get("/api/dependencies/" + dependency)
                .then()
                .statusCode(200)
                .body("targetItemId", equalTo((int) target))
                .extract()
                .jsonPath()
                .getMap(""));
        got.put("effect", "show");
        as(sara).body(got)
                .patch("/api/dependencies/" + dependency)
                .then()
                .statusCode(200)
                .body("effect", equalTo("show"))
                .body("targetItemId", equalTo((int) target));

        // A change of the target is still checked: to another deleted item, or back to the deleted one.
        long gone = Api.item(sara, c, null);
        as(sara).delete("/api/items/" + gone).then().statusCode(204);
        as(sara).body(Map.of("targetItemId", gone))
                .patch("/api/dependencies/" + dependency)
                .then()
                .statusCode(400)
                .body("message", equalTo("item " + gone + " is not an item of configurator " + c));
        as(sara).body(Map.of("targetItemId", other))
                .patch("/api/dependencies/" + dependency)
                .then()
                .statusCode(200)
                .body("targetItemId", equalTo((int) other));
        as(sara).body(Map.of("targetItemId", target))
                .patch("/api/dependencies/" + dependency)
                .then()
                .statusCode(400)
                .body("message", equalTo("item " + target + " is not an item of configurator " + c));
        as(sara).get("/api/dependencies/" + dependency)
                .then()
                .statusCode(200)
                .body("targetItemId", equalTo((int) other))
                .body("effect", equalTo("show"));
    }

    @Test
    void aConfiguratorsOwnGetBodyCanBeSentBackToRenameIt() {
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        Api.filter(sara, item);
        Api.variable(sara, c);
        Map<String, Object> tree = new HashMap<>(as(sara).get("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap(""));
        tree.put("name", "Renamed");
        as(sara).body(tree)
                .patch("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .body("id", equalTo((int) c))
                .body("name", equalTo("Renamed"));
        // Ignored, not applied: the rename leaves the items and variables as they were.
        tree.put("items", List.of());
        tree.put("variables", List.of());
        tree.put("name", "Again");
        as(sara).body(tree).patch("/api/configurators/" + c).then().statusCode(200);
        as(sara).get("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .body("name", equalTo("Again"))
                .body("items", hasSize(1))
                .body("items[0].filters", hasSize(1))
                .body("variables", hasSize(1));
        // A field no GET answers is still refused, and a create takes no content.
        as(sara).body(Map.of("name", "x", "itmes", List.of()))
                .patch("/api/configurators/" + c)
                .then()
                .statusCode(400)
                .body("message", equalTo("unknown field 'itmes' (expected name)"));
        as(sara).body(Map.of("name", "x", "items", List.of()))
                .post("/api/configurators")
                .then()
                .statusCode(400)
                .body("message", equalTo("unknown field 'items' (expected name)"));
    }
}
