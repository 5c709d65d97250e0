package io.editlock.rest;

import static io.editlock.support.Api.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * docs/rest-api.md: a body larger than the server accepts is 413 with a JSON message, refused as it
 * arrives (also before the token is looked at), and changes nothing.
 */
@QuarkusTest
class OversizedBodyTest {

    private static final String OVERSIZED = "{\"name\":\"" + "x".repeat(600 * 1024) + "\"}";

    @Test
    void anOversizedBodyIs413WithItsMessageAndChangesNothing() {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        String name = as(sara).get("/api/configurators/" + c).jsonPath().getString("name");

        as(sara).body(OVERSIZED)
                .patch("/api/configurators/" + c)
                .then()
                .statusCode(413)
                .body("message", notNullValue());
        given().contentType("application/json")
                .body(OVERSIZED)
                .post("/api/configurators")
                .then()
                .statusCode(413)
                .body("message", notNullValue());

        as(sara).get("/api/configurators/" + c).then().statusCode(200).body("name", equalTo(name));
    }
}
