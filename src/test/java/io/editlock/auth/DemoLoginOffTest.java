package io.editlock.auth;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.RedisIndependent;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §3: with demo login off, its path is not there, whatever the method, nor in the API's
 * own description.
 */
@QuarkusTest
@RedisIndependent
@TestProfile(DemoLoginOffTest.Off.class)
class DemoLoginOffTest {

    public static class Off implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("editlock.demo-login.enabled", "false");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "POST, /api/auth/demo-login",
        "GET, /api/auth/demo-login",
        "HEAD, /api/auth/demo-login",
        "PUT, /api/auth/demo-login",
        "DELETE, /api/auth/demo-login",
        "PATCH, /api/auth/demo-login",
        "POST, /api/auth/demo-login/",
        "POST, /api/auth/demo-login//",
        "GET, /api/auth/demo-login/"
    })
    void everyMethodFindsNothing(String method, String path) {
        var answer = given().contentType("application/json")
                .body("{\"userId\":\"u-sara\",\"name\":\"Sara\"}")
                .request(method, path)
                .then()
                .statusCode(404);
        if (!method.equals("HEAD")) {
            answer.body("message", notNullValue());
        }
    }

    @Test
    void theApiDocumentDoesNotListIt() {
        JsonPath doc = given().queryParam("format", "json")
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertTrue(doc.getMap("paths").containsKey("/api/configurators"), "the document is there");
        assertFalse(doc.getMap("paths").containsKey("/api/auth/demo-login"), "the demo login is not");
        assertFalse(doc.getMap("components.schemas").containsKey("DemoLoginRequest"), "nor is the body it would take");
    }
}
