package io.editlock.auth;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.smallrye.jwt.build.Jwt;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §3: the user id is the token's {@code sub}. A token without one names nobody, however
 * well signed (an identity provider may put the user in {@code upn} alone): 401 on REST, a refused
 * upgrade on {@code /locking}, a refused Socket.IO connect, never a request served for a user without an id.
 */
@QuarkusTest
class SubjectRequiredTest {

    private static final Pattern SID = Pattern.compile("\"sid\":\"([^\"]+)\"");

    @TestHTTPResource("/")
    URI base;

    /**
     * No {@code sub} at all, an empty one, a blank one, one of no-break spaces only, and one that is no
     * text: with a lone UTF-16 surrogate, which UTF-8 cannot carry (stored, it would become the id of
     * whoever has a {@code ?} there).
     */
    static Stream<String> withoutSubject() {
        return Stream.of(
                ServerSigned.sign(Jwt.issuer("editlock")
                        .audience(ServerSigned.AUDIENCE)
                        .upn("sara@example.com")
                        .claim("name", "Sara")
                        .expiresIn(3600)),
                ServerSigned.sign(ServerSigned.claims("", "Sara")),
                ServerSigned.sign(ServerSigned.claims("  ", "Sara")),
                ServerSigned.sign(ServerSigned.claims("\u00a0\u2007", "Sara")),
                ServerSigned.signWithRawSubject("\"19\\ud80002\""));
    }

    @ParameterizedTest
    @MethodSource("withoutSubject")
    void aTokenWithoutSubIsRefusedAtTheUpgrade(String token) {
        assertEquals(
                Optional.of(401), WsClient.refusal(WsClient.locking(base), Map.of("Authorization", "Bearer " + token)));
    }

    /** docs/protocol.md §12: the connect is refused as one with a bad token is, and no welcome follows. */
    @ParameterizedTest
    @MethodSource("withoutSubject")
    void aTokenWithoutSubIsRefusedAtTheSocketIoConnect(String token) {
        String open = given().queryParam("EIO", "4")
                .queryParam("transport", "polling")
                .when()
                .get("/socket.io/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Matcher sid = SID.matcher(open);
        assertTrue(sid.find(), open);
        polling(sid.group(1))
                .contentType("text/plain;charset=UTF-8")
                .body("40/locking,{\"token\":\"" + token + "\"}")
                .when()
                .post("/socket.io/")
                .then()
                .statusCode(200);
        String reply = polling(sid.group(1))
                .when()
                .get("/socket.io/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertEquals("44/locking,{\"message\":\"UNAUTHORIZED\",\"data\":{\"code\":\"UNAUTHORIZED\"}}", reply);
    }

    /** A request of the Engine.IO session {@code sid}, on the long-polling transport. */
    private static RequestSpecification polling(String sid) {
        return given().queryParam("EIO", "4").queryParam("transport", "polling").queryParam("sid", sid);
    }

    @ParameterizedTest
    @MethodSource("withoutSubject")
    void aTokenWithoutSubIsRefusedByRest(String token) {
        given().auth().oauth2(token).when().get("/api/configurators").then().statusCode(401);
        given().auth()
                .oauth2(token)
                .contentType("application/json")
                .body(Map.of("name", "nobody's"))
                .when()
                .post("/api/configurators")
                .then()
                .statusCode(401);
    }
}
