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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/configuration.md, {@code mp.jwt.verify.clock.skew} (60 s): an issuer's clock may run ahead by
 * that much. A token issued later than that from now is refused at the {@code /locking} upgrade and on
 * REST (401); one within it is served.
 */
@QuarkusTest
class FutureTokenTest {

    @TestHTTPResource("/")
    URI base;

    private static String issuedInSeconds(long seconds) {
        Instant now = Instant.now();
        return ServerSigned.sign(ServerSigned.claims("sara", "Sara")
                .issuedAt(now.plusSeconds(seconds))
                .expiresAt(now.plusSeconds(seconds + 3600)));
    }

    @ParameterizedTest(name = "issued in {0} s: {1}")
    @CsvSource({"30, 200", "120, 401", "86400, 401"})
    void aTokenIssuedBeyondTheSkewIsRefused(long seconds, int status) {
        String token = issuedInSeconds(seconds);
        given().auth().oauth2(token).when().get("/api/configurators").then().statusCode(status);
        assertEquals(
                status == 200 ? Optional.empty() : Optional.of(status),
                WsClient.refusal(WsClient.locking(base), Map.of("Authorization", "Bearer " + token)),
                "the upgrade with a token issued in " + seconds + " s");
    }

    /**
     * Times beyond any calendar (past the year 9999; further on, beyond Instant's own range): such a
     * token ends or was issued at no moment the server can keep, so it is refused like any unusable one.
     */
    @ParameterizedTest(name = "exp {0}, iat {1}")
    @CsvSource({"10000000000000000, 0", "40000000000000000, 0", "253402300800, 0", "0, 40000000000000000"})
    void aTokenWithTimesBeyondAnyCalendarIsRefused(long exp, long iat) {
        Instant now = Instant.now();
        String token = ServerSigned.sign(ServerSigned.claims("sara", "Sara")
                .expiresAt(exp == 0 ? now.plusSeconds(3600).getEpochSecond() : exp)
                .issuedAt(iat == 0 ? now.getEpochSecond() : iat));
        given().auth().oauth2(token).when().get("/api/configurators").then().statusCode(401);
        assertEquals(
                Optional.of(401),
                WsClient.refusal(WsClient.locking(base), Map.of("Authorization", "Bearer " + token)),
                "the upgrade with exp " + exp + " and iat " + iat);
    }
}
