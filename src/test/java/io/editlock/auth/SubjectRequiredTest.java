package io.editlock.auth;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.build.Jwt;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §3: the user id is the token's {@code sub}. A token without one names nobody, however
 * well signed (an identity provider may put the user in {@code upn} alone): 401 on REST, a refused
 * upgrade on {@code /locking}, never a request served for a user without an id.
 */
@QuarkusTest
class SubjectRequiredTest {

    @TestHTTPResource("/")
    URI base;

    private static String withoutSubject() {
        return ServerSigned.sign(Jwt.issuer("editlock")
                .audience(ServerSigned.AUDIENCE)
                .upn("sara@example.com")
                .claim("name", "Sara")
                .expiresIn(3600));
    }

    @Test
    void aTokenWithoutSubIsRefusedAtTheUpgrade() {
        assertEquals(
                Optional.of(401),
                WsClient.refusal(WsClient.locking(base), Map.of("Authorization", "Bearer " + withoutSubject())));
    }

    @Test
    void aTokenWithoutSubIsRefusedByRest() {
        given().auth()
                .oauth2(withoutSubject())
                .when()
                .get("/api/configurators")
                .then()
                .statusCode(401);
        given().auth()
                .oauth2(withoutSubject())
                .contentType("application/json")
                .body(Map.of("name", "nobody's"))
                .when()
                .post("/api/configurators")
                .then()
                .statusCode(401);
    }
}
