package io.editlock.rest;

import static io.editlock.support.Api.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.AuditLines;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.hamcrest.Matchers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/rest-api.md, Errors: the refusals of Quarkus security are JSON with a {@code message} like every other
 * error: 401 without a token or with one that does not verify (still with its {@code WWW-Authenticate: Bearer}
 * challenge), 403 for a role the token lacks, which is audited as a refused write.
 */
@QuarkusTest
class SecurityRefusalsTest {

    /** Signed by a key the server has never seen: well-formed, but it does not verify. */
    private static final String FOREIGN_TOKEN = TestTokens.generate().token("mallory", "Mallory");

    @ParameterizedTest(name = "{0} {1}, token: {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "GET    | /api/configurators        | none    | a bearer token is required",
                "POST   | /api/configurators        | none    | a bearer token is required",
                "DELETE | /api/locks/configurator:1 | none    | a bearer token is required",
                "GET    | /api/configurators        | foreign | the bearer token is not valid",
                "PATCH  | /api/items/1              | foreign | the bearer token is not valid",
                "DELETE | /api/locks/configurator:1 | foreign | the bearer token is not valid",
                "GET    | /api/configurators        | garbage | the bearer token is not valid"
            })
    void aMissingOrBadTokenIs401WithAJsonMessageAndTheBearerChallenge(
            String method, String path, String token, String message) {
        RequestSpecification request = given().contentType(ContentType.JSON).body("{}");
        switch (token) {
            case "foreign" -> request.auth().oauth2(FOREIGN_TOKEN);
            case "garbage" -> request.auth().oauth2("not-a-jwt");
            default -> {}
        }
        request.request(method, path)
                .then()
                .statusCode(401)
                .header("WWW-Authenticate", equalTo("Bearer"))
                .contentType(startsWith("application/json"))
                .body("message", startsWith(message));
    }

    /** docs/operations.md, Audit log: the refused break-lock is one refuse-write line, like every refused write. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"configurator:1", "item:1:filters"})
    void breakingALockWithoutTheAdminRoleIs403WithAJsonMessageAndAnAuditLine(String canonical) {
        TestUser omar = DemoLogin.user("Omar");
        try (AuditLines audit = AuditLines.capture()) {
            as(omar).delete("/api/locks/" + canonical)
                    .then()
                    .statusCode(403)
                    .contentType(startsWith("application/json"))
                    .body("message", not(Matchers.emptyOrNullString()));
            String expected = "refuse-write status=403 target=\"DELETE /api/locks/" + canonical + "\" user=\""
                    + omar.id() + "\" not-allowed";
            assertEquals(
                    expected,
                    audit.await("the audit line of Omar's refused break-lock", line -> line.contains(omar.id())),
                    "the refused break-lock in the audit log");
        }
    }
}
