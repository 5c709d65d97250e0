package io.editlock.auth;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

import io.editlock.support.DemoLogin;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §8: 401 comes before every other refusal of the REST API. Without a token, or with
 * one that does not verify, a caller learns nothing of routes, methods or media types.
 */
@QuarkusTest
class TokenFirstTest {

    /** method | path | Content-Type | Accept | what an authenticated caller would get */
    @ParameterizedTest(name = "{0} {1} ({2}, accepting {3}), no token -> 401 (not {4})")
    @CsvSource(
            delimiter = '|',
            value = {
                "PUT    | /api/configurators/1            | application/json | application/json | 405",
                "POST   | /api/configurators              | text/plain       | application/json | 415",
                "GET    | /api/configurators              | application/json | text/plain       | 406",
                "GET    | /api/nothing-here               | application/json | application/json | 404",
                "GET    | /api/configurators/999999999    | application/json | application/json | 404",
                "PATCH  | /api/filters/999999999          | application/json | application/json | 400",
                "DELETE | /api/locks/configurator:1       | application/json | application/json | 403",
                "OPTIONS| /api/configurators/5            | application/json | application/json | 200"
            })
    void noTokenIsRefusedBeforeAnythingElse(
            String method, String path, String contentType, String accept, int withToken) {
        refusedWith401(given(), method, path, contentType, accept);
        refusedWith401(given().auth().oauth2("not-a-token"), method, path, contentType, accept);
        // The same request with a token gets the other refusal: the row is one that 401 hides.
        given().auth()
                .oauth2(DemoLogin.user("Sara").token())
                .contentType(contentType)
                .accept(accept)
                .body("{\"name\":\"x\"}")
                .request(method, path)
                .then()
                .statusCode(withToken);
    }

    /** A browser's CORS preflight carries no credentials by design: it is left to the route. */
    @Test
    void aPreflightNeedsNoToken() {
        given().header("Origin", "https://configurator.example")
                .header("Access-Control-Request-Method", "PATCH")
                .options("/api/filters/5")
                .then()
                .statusCode(not(401));
    }

    private static void refusedWith401(
            RequestSpecification request, String method, String path, String contentType, String accept) {
        request.contentType(contentType)
                .accept(accept)
                .body("{\"name\":\"x\"}")
                .request(method, path)
                .then()
                .statusCode(401)
                .header("WWW-Authenticate", "Bearer")
                .body("message", notNullValue());
    }
}
