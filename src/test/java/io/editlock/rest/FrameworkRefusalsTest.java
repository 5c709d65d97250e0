package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

import io.editlock.support.DemoLogin;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/rest-api.md, Errors: every error body is JSON with a {@code message}, also the refusals Quarkus
 * makes before any route runs (a method the path does not have, a body or an answer that is not JSON).
 */
@QuarkusTest
class FrameworkRefusalsTest {

    @ParameterizedTest(name = "{0} {1} ({2}, accepting {3}) -> {4}")
    @CsvSource(
            delimiter = '|',
            value = {
                "PUT    | /api/configurators          | application/json | application/json | 405",
                "DELETE | /api/configurators          | application/json | application/json | 405",
                "GET    | /api/locks/configurator:1   | application/json | application/json | 405",
                "POST   | /api/configurators          | text/plain       | application/json | 415",
                "PATCH  | /api/items/1                | text/plain       | application/json | 415",
                "GET    | /api/configurators          | application/json | text/csv         | 406"
            })
    void aRefusalOfQuarkusIsAJsonMessage(String method, String path, String type, String accept, int status) {
        as(DemoLogin.user("Sara"))
                .contentType(type)
                .accept(accept)
                .body("{}")
                .request(method, path)
                .then()
                .statusCode(status)
                .contentType(startsWith("application/json"))
                .body("message", notNullValue());
    }
}
