package io.editlock.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/protocol.md §9: /q/openapi documents every route of §8, the guarded ones with 423, 412 and 503. */
@QuarkusTest
class OpenApiTest {

    private static final List<String> GUARDED = List.of(
            "patch /api/configurators/{id}", "delete /api/configurators/{id}", "post /api/configurators/{id}/items",
            "post /api/configurators/{id}/variables", "patch /api/items/{id}", "delete /api/items/{id}",
            "post /api/items/{id}/filters", "post /api/items/{id}/dependencies", "post /api/items/{id}/attribute-values",
            "patch /api/filters/{id}", "delete /api/filters/{id}", "patch /api/dependencies/{id}", "delete /api/dependencies/{id}",
            "patch /api/attribute-values/{id}", "delete /api/attribute-values/{id}", "patch /api/variables/{id}",
            "delete /api/variables/{id}");

    @Test
    void everyGuardedRouteDocumentsItsRefusals() {
        JsonPath doc = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().jsonPath();
        for (String route : GUARDED) {
            String[] parts = route.split(" ");
            Map<String, Object> responses = doc.getMap("paths.'" + parts[1] + "'." + parts[0] + ".responses");
            assertTrue(responses != null, route + " is not documented");
            for (String status : List.of("400", "401", "404", "412", "423", "503")) {
                assertTrue(responses.containsKey(status), route + " does not document " + status + ": " + responses.keySet());
            }
            assertTrue(doc.getString("paths.'" + parts[1] + "'." + parts[0] + ".summary") != null, route + " has no summary");
        }
        assertTrue(doc.getMap("paths.'/api/locks/{canonical}'.delete.responses").containsKey("403"));
        assertTrue(doc.getMap("paths.'/api/configurators'.post.responses").containsKey("201"));
        assertTrue(doc.getMap("paths.'/api/configurators/{id}/locks'.get.responses").containsKey("404"));
        assertTrue(doc.getMap("components.responses").containsKey("Locked"));
    }

    @Test
    void theDescriptionCitesTheProjectsOwnContract() {
        String doc = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().asString();
        assertTrue(doc.contains("docs/protocol.md"), "the Swagger page points readers at docs/protocol.md");
        assertFalse(doc.contains("PROTOCOL"), "no reference to a PROTOCOL document readers cannot find");
    }
}
