package io.editlock.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §3: the name others see is the token's {@code name}, else {@code preferred_username},
 * else {@code sub}; one that is blank (no-break spaces too) or not text is skipped. A claim that is a
 * number, an object, an array or a boolean is not text: shown, it would read as JSON.
 */
@QuarkusTest
class DisplayNameTest {

    @TestHTTPResource("/")
    URI base;

    @ParameterizedTest(name = "name {0}: others see {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "text         | Nora",
                "number       | Sara",
                "object       | Sara",
                "array        | Sara",
                "boolean      | Sara",
                "no-break     | Sara",
                "zero-width   | Sara",
                "absent       | Sara",
            })
    void theNameShownIsTheFirstThatIsText(String name, String shown) {
        JwtClaimsBuilder claims = Jwt.issuer("editlock")
                .audience("editlock")
                .subject("user-" + UUID.randomUUID())
                .preferredUserName("Sara")
                .expiresIn(600);
        switch (name) {
            case "text" -> claims.claim("name", "Nora");
            case "number" -> claims.claim("name", 5);
            case "object" -> claims.claim("name", Map.of("first", "Nora"));
            case "array" -> claims.claim("name", List.of("Nora", "Tom"));
            case "boolean" -> claims.claim("name", true);
            case "no-break" -> claims.claim("name", "\u00a0\u2007");
            case "zero-width" -> claims.claim("name", "\u200b\ufeff");
            default -> {}
        }
        String token = DemoKeysConfigSourceFactory.generatedSigningKey()
                .map(claims::sign)
                .orElseGet(claims::sign);
        try (WsClient socket = WsClient.connect(base, token)) {
            assertEquals(shown, socket.welcome().path("data").path("userName").asText(), name);
        }
    }
}
