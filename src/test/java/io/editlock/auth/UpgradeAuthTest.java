package io.editlock.auth;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.DemoLogin;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.build.Jwt;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §3 and §11 at the {@code /locking} upgrade: no or bad token → 401; a foreign Origin →
 * 403, checked before the token; the server's own origin and no Origin at all are fine. Also the
 * demo login's 400 for a request without a user.
 */
@QuarkusTest
class UpgradeAuthTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void noTokenIsRefusedWith401() {
        assertEquals(Optional.of(401), refusal(Map.of()), "an upgrade without a token must be refused with 401");
    }

    @ParameterizedTest(name = "Authorization: {0}")
    @ValueSource(strings = {"Bearer garbage", "Bearer ", "Bearer a.b.c", "Basic c2FyYTpzZWNyZXQ="})
    void badAuthorizationIsRefusedWith401(String authorization) {
        assertEquals(
                Optional.of(401),
                refusal(Map.of("Authorization", authorization)),
                "'" + authorization + "' is not a valid bearer token: 401");
    }

    @Test
    void tokenSignedByAnotherKeyIsRefusedWith401() throws NoSuchAlgorithmException {
        PrivateKey foreign =
                KeyPairGenerator.getInstance("RSA").generateKeyPair().getPrivate();
        String token = Jwt.issuer("editlock")
                .audience(ServerSigned.AUDIENCE)
                .subject("mallory")
                .claim("name", "Mallory")
                .expiresIn(3600)
                .sign(foreign);
        assertEquals(
                Optional.of(401), refusal(bearer(token)), "a token signed by a key the server does not trust: 401");
    }

    @Test
    void expiredTokenIsRefusedWith401() {
        Instant now = Instant.now();
        String expired = Jwt.issuer("editlock")
                .audience(ServerSigned.AUDIENCE)
                .subject("sara")
                .claim("name", "Sara")
                .issuedAt(now.minusSeconds(7200))
                .expiresAt(now.minusSeconds(3600))
                .sign(serverKey());
        String fresh = Jwt.issuer("editlock")
                .audience(ServerSigned.AUDIENCE)
                .subject("sara")
                .claim("name", "Sara")
                .issuedAt(now)
                .expiresAt(now.plusSeconds(3600))
                .sign(serverKey());

        assertEquals(
                Optional.empty(), refusal(bearer(fresh)), "control: the same token, not expired, must be accepted");
        assertEquals(Optional.of(401), refusal(bearer(expired)), "a token that expired an hour ago: 401");
    }

    @Test
    void tokenOfAnotherIssuerIsRefusedWith401() {
        String token = Jwt.issuer("someone-else")
                .audience(ServerSigned.AUDIENCE)
                .subject("sara")
                .claim("name", "Sara")
                .expiresIn(3600)
                .sign(serverKey());
        assertEquals(Optional.of(401), refusal(bearer(token)), "a token of another issuer: 401");
    }

    @Test
    void tokenInTheQueryIsAcceptedForBrowsers() {
        var sara = DemoLogin.user("Sara");
        URI uri = URI.create(
                WsClient.locking(base) + "?access_token=" + URLEncoder.encode(sara.token(), StandardCharsets.UTF_8));
        try (WsClient client = WsClient.connectTo(uri, Map.of())) {
            assertEquals(
                    sara.id(),
                    client.welcome().path("data").path("userId").asText(),
                    "?access_token= must identify the user");
        }
        URI garbage = URI.create(WsClient.locking(base) + "?access_token=garbage");
        assertEquals(Optional.of(401), WsClient.refusal(garbage, Map.of()), "a bad ?access_token=: 401");
    }

    @ParameterizedTest(name = "Origin: {0}")
    @ValueSource(
            strings = {"https://evil.example", "null", "http://localhost:1", "http://localhost.evil.example", "file://"
            })
    void foreignOriginIsRefusedWith403EvenWithAValidToken(String origin) {
        String token = DemoLogin.user("Sara").token();
        assertEquals(
                Optional.of(403),
                refusal(withOrigin(bearer(token), origin)),
                "Origin " + origin + " is not allowed: 403");
    }

    @Test
    void originIsCheckedBeforeTheToken() {
        assertEquals(
                Optional.of(403),
                refusal(Map.of("Origin", "https://evil.example")),
                "a foreign Origin without a token: 403, the Origin check comes first");
    }

    @Test
    void ownOriginIsAllowed() {
        String own = "http://" + base.getHost() + ":" + base.getPort();
        String token = DemoLogin.user("Sara").token();
        assertEquals(
                Optional.empty(),
                refusal(withOrigin(bearer(token), own)),
                "the server's own origin " + own + " must be allowed");
    }

    @Test
    void noOriginIsAllowed() {
        String token = DemoLogin.user("Sara").token();
        assertEquals(
                Optional.empty(),
                refusal(bearer(token)),
                "a client that sends no Origin (not a browser) is not refused for it");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "{\"name\":\"Sara\"}",
                "{\"userId\":\"42\"}",
                "{\"userId\":\"\",\"name\":\"Sara\"}",
                "{\"userId\":\"42\",\"name\":\"  \"}",
                "{}",
                "[]",
                "not json",
                "{\"userId\":42,\"name\":\"Sara\"}",
                "{\"userId\":\"42\",\"name\":{\"first\":\"Sara\"}}",
                "{\"userId\":\"42\",\"name\":\"Sara\",\"roles\":\"admin\"}",
                "{\"userId\":\"42\",\"name\":\"Sara\",\"roles\":[1]}",
                "{\"userId\":\"42\",\"name\":\"Sara\",\"roles\":[\"\"]}"
            })
    void demoLoginWithoutAUserIsA400WithItsReason(String body) {
        given().contentType("application/json")
                .body(body)
                .when()
                .post("/api/auth/demo-login")
                .then()
                .statusCode(400)
                .body("message", not(emptyOrNullString()));
    }

    private Optional<Integer> refusal(Map<String, String> headers) {
        return WsClient.refusal(WsClient.locking(base), headers);
    }

    private static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }

    private static Map<String, String> withOrigin(Map<String, String> headers, String origin) {
        Map<String, String> all = new HashMap<>(headers);
        all.put("Origin", origin);
        return all;
    }

    /** The key this server signs demo tokens with (generated at start-up, see DemoKeysConfigSourceFactory). */
    private static PrivateKey serverKey() {
        return DemoKeysConfigSourceFactory.generatedSigningKey()
                .orElseThrow(() -> new AssertionError("the test profile must generate a demo signing key"));
    }
}
