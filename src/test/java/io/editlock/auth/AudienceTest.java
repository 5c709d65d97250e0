package io.editlock.auth;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.editlock.support.DemoLogin;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.build.Jwt;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §3: a token must name this server in {@code aud} (default {@code editlock}). A
 * token of the same issuer, signed with the same key, for another application (or for none) is a
 * bad token: 401 on REST, a refused upgrade on {@code /locking}.
 */
@QuarkusTest
class AudienceTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void tokenForAnotherApplicationIsRefusedAtTheUpgrade() {
        String other = ServerSigned.sign(ServerSigned.claims("sara", "Sara").audience("billing"));
        String ours = ServerSigned.sign(ServerSigned.claims("sara", "Sara"));

        assertEquals(Optional.empty(), refusal(ours), "control: the same token for editlock must be accepted");
        assertEquals(Optional.of(401), refusal(other), "a token of the same issuer for another application: 401");
    }

    @Test
    void tokenWithoutAudienceIsRefusedAtTheUpgrade() {
        String none = ServerSigned.sign(
                Jwt.issuer("editlock").subject("sara").claim("name", "Sara").expiresIn(3600));
        assertEquals(
                Optional.of(401), refusal(none), "a token that names no audience is not meant for this server: 401");
    }

    @Test
    void tokenForAnotherApplicationIsRefusedByRest() {
        String other = ServerSigned.sign(ServerSigned.claims("sara", "Sara").audience("billing"));
        String ours = ServerSigned.sign(ServerSigned.claims("sara", "Sara"));

        given().auth().oauth2(ours).when().get("/api/configurators").then().statusCode(200);
        given().auth().oauth2(other).when().get("/api/configurators").then().statusCode(401);
    }

    @Test
    void tokenNamingSeveralAudiencesIncludingOursIsAccepted() {
        String shared = ServerSigned.sign(ServerSigned.claims("sara", "Sara").audience(Set.of("billing", "editlock")));
        assertEquals(Optional.empty(), refusal(shared), "aud lists editlock among others: meant for this server too");
    }

    @Test
    void demoLoginTokensCarryTheAudience() throws Exception {
        String token = DemoLogin.user("Sara").token();
        JsonNode claims = new ObjectMapper()
                .readTree(new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8));
        JsonNode aud = claims.path("aud");
        assertTrue(
                aud.asText().equals("editlock")
                        || (aud.isArray() && aud.toString().contains("\"editlock\"")),
                "a demo token must be for the configured audience, was " + aud);
        assertEquals(Optional.empty(), refusal(token), "and the server must accept it");
    }

    private Optional<Integer> refusal(String token) {
        return WsClient.refusal(WsClient.locking(base), Map.of("Authorization", "Bearer " + token));
    }
}
