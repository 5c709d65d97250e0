package io.editlock.support;

import static io.restassured.RestAssured.given;

import io.editlock.support.DemoLogin.TestUser;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** REST calls of the running test app, as one user; creates check for 201 and return the new id. */
public final class Api {

    private Api() {}

    public static RequestSpecification as(TestUser user) {
        return given().auth().oauth2(user.token()).contentType(ContentType.JSON);
    }

    public static long configurator(TestUser user) {
        return created(as(user).body(Map.of("name", "cfg-" + UUID.randomUUID())).post("/api/configurators"));
    }

    public static long item(TestUser user, long configuratorId, Long parentItemId) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "item");
        body.put("parentItemId", parentItemId);
        return created(as(user).body(body).post("/api/configurators/" + configuratorId + "/items"));
    }

    public static long filter(TestUser user, long itemId) {
        return created(as(user).body(Map.of("expression", "color == 'red'")).post("/api/items/" + itemId + "/filters"));
    }

    public static long dependency(TestUser user, long itemId, long targetItemId) {
        return created(as(user).body(Map.of("targetItemId", targetItemId, "effect", "hide"))
                .post("/api/items/" + itemId + "/dependencies"));
    }

    public static long attributeValue(TestUser user, long itemId) {
        return created(as(user).body(Map.of("name", "weight", "value", "12kg"))
                .post("/api/items/" + itemId + "/attribute-values"));
    }

    public static long variable(TestUser user, long configuratorId) {
        return created(as(user).body(Map.of("name", "total", "formula", "a + b"))
                .post("/api/configurators/" + configuratorId + "/variables"));
    }

    private static long created(Response response) {
        return response.then().statusCode(201).extract().jsonPath().getLong("id");
    }
}
