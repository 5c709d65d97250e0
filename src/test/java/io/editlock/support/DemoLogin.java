package io.editlock.support;

import static io.restassured.RestAssured.given;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Tokens from {@code POST /api/auth/demo-login} of the running test app. */
public final class DemoLogin {

    private DemoLogin() {}

    public static String token(String userId, String name, String... roles) {
        return given().contentType("application/json")
                .body(Map.of("userId", userId, "name", name, "roles", List.of(roles)))
                .when()
                .post("/api/auth/demo-login")
                .then()
                .statusCode(200)
                .extract()
                .path("token");
    }

    /** A user of their own for one test: id unique, name as given. */
    public static TestUser user(String name, String... roles) {
        String id = name.toLowerCase() + "-" + UUID.randomUUID().toString().substring(0, 8);
        return new TestUser(id, name, token(id, name, roles));
    }

    public record TestUser(String id, String name, String token) {}
}
