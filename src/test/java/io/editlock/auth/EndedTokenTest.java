package io.editlock.auth;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §3: a token's {@code exp} is taken as it stands. A token that ended a moment ago is
 * refused at the {@code /locking} upgrade and on REST (401), although it lies within the clock skew
 * the server allows an issuer ({@code mp.jwt.verify.clock.skew}, 60 s).
 */
@QuarkusTest
class EndedTokenTest {

    @TestHTTPResource("/")
    URI base;

    private static String endedSecondsAgo(long seconds) {
        Instant now = Instant.now();
        return ServerSigned.sign(ServerSigned.claims("sara", "Sara")
                .issuedAt(now.minusSeconds(600))
                .expiresAt(now.minusSeconds(seconds)));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 5, 30})
    void aTokenThatEndedIsRefusedAtTheUpgrade(long secondsAgo) {
        assertEquals(
                Optional.of(401),
                WsClient.refusal(
                        WsClient.locking(base), Map.of("Authorization", "Bearer " + endedSecondsAgo(secondsAgo))),
                "a token that ended " + secondsAgo + " s ago");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 5, 30})
    void aTokenThatEndedIsRefusedByRest(long secondsAgo) {
        String token = endedSecondsAgo(secondsAgo);
        given().auth().oauth2(token).when().get("/api/configurators").then().statusCode(401);
        given().auth()
                .oauth2(token)
                .contentType("application/json")
                .body(Map.of("name", "too late"))
                .when()
                .post("/api/configurators")
                .then()
                .statusCode(401);
    }

    @Test
    void aTokenThatHasNotEndedIsServed() {
        Instant now = Instant.now();
        String token = ServerSigned.sign(ServerSigned.claims("sara", "Sara").expiresAt(now.plusSeconds(30)));
        given().auth().oauth2(token).when().get("/api/configurators").then().statusCode(200);
        assertEquals(
                Optional.empty(),
                WsClient.refusal(WsClient.locking(base), Map.of("Authorization", "Bearer " + token)),
                "control: a token with 30 s to go is accepted");
    }
}
