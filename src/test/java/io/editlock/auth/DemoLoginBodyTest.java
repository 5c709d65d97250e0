package io.editlock.auth;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The demo sign-in (docs/rest-api.md) refuses a body it cannot sign for as it stands, each with the field
 * that is wrong. Half a UTF-16 surrogate pair above all: it cannot be carried in a token, and signed as
 * {@code ?} it made two requested users one (docs/protocol.md §3).
 */
@QuarkusTest
class DemoLoginBodyTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            not an object              | []                                                | a JSON body
            no userId                  | {"name":"Sara"}                                   | userId must be
            blank userId               | {"userId":"  ","name":"Sara"}                     | userId must be
            userId not text            | {"userId":7,"name":"Sara"}                        | userId must be
            userId a no-break space    | {"userId":"\\u00a0","name":"Sara"}               | userId must be
            userId a zero-width space  | {"userId":"\\u200b","name":"Sara"}               | userId must be
            name no-break spaces       | {"userId":"7","name":"\\u2007\\u202f"}           | name must be
            a role a no-break space    | {"userId":"7","name":"Sara","roles":["\\u00a0"]} | roles must be
            userId a lone high half    | {"userId":"\\ud800","name":"Sara"}                | userId must be
            userId a lone low half     | {"userId":"a\\udc00","name":"Sara"}               | userId must be
            name a lone half           | {"userId":"7","name":"Sa\\ud83dra"}               | name must be
            roles not a list           | {"userId":"7","name":"Sara","roles":"admin"}      | roles must be
            a role a lone half         | {"userId":"7","name":"Sara","roles":["\\udfff"]}  | roles must be
            """)
    void refused(String what, String body, String message) {
        given().contentType("application/json")
                .body(body)
                .post("/api/auth/demo-login")
                .then()
                .statusCode(400)
                .body("message", startsWith(message));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            plain                      | {"userId":"7","name":"Sara"}
            a whole surrogate pair     | {"userId":"\\ud83d\\ude00","name":"Sara \\ud83d\\ude00","roles":["admin"]}
            """)
    void signed(String what, String body) {
        given().contentType("application/json")
                .body(body)
                .post("/api/auth/demo-login")
                .then()
                .statusCode(200)
                .body("token", startsWith("ey"));
    }
}
