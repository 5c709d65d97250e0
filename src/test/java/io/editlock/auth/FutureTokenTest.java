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
}
