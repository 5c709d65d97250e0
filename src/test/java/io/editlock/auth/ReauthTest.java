package io.editlock.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.build.Jwt;
import java.net.URI;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §3: {@code reauth {accessToken}} renews the open socket's identity with a fresh
 * token of the same user ({@code reauthed {expiresAt}}); a bad token or another user's is
 * {@code error UNAUTHORIZED} and leaves the socket as it was, ending when its old token ends.
 */
@QuarkusTest
class ReauthTest {

    /** Long enough for a request on a loaded machine, short enough to wait for its end. */
    private static final int LIFE_SECONDS = 5;

    @TestHTTPResource("/")
    URI base;

    @Test
    void reauthWithAFreshTokenKeepsTheSocketOpenPastTheOldToken() {
        String userId = "sara-" + UUID.randomUUID();
        Instant renewedEnd = Instant.now().plusSeconds(3600).truncatedTo(ChronoUnit.SECONDS);
        try (WsClient client = WsClient.connect(base, endingIn(userId, LIFE_SECONDS))) {
            client.welcome();
            JsonNode reply = client.request(
                    "reauth",
                    Map.of(
                            "accessToken",
                            ServerSigned.sign(
                                    ServerSigned.claims(userId, "Sara").expiresAt(renewedEnd))));

            assertEquals(
                    "reauthed",
                    reply.path("event").asText(),
                    "a fresh token of the same user renews the socket: " + reply);
            assertEquals(
                    renewedEnd,
                    Instant.parse(reply.path("data").path("expiresAt").asText()),
                    "expiresAt is the new token's exp: " + reply);
            WsClient.stays(
                    () -> !client.isClosed(),
                    Duration.ofSeconds(LIFE_SECONDS + 2),
                    "the socket must outlive its first token after reauth");
            assertEquals(
                    "touched", client.request("touch", Map.of()).path("event").asText());
        }
    }

    /** An identity provider's token with many groups is long; the socket it opened must be renewable with one. */
    @Test
    void aLongTokenThatOpenedTheSocketRenewsIt() {
        String userId = "sara-" + UUID.randomUUID();
        List<String> groups =
                IntStream.range(0, 600).mapToObj(i -> "group-" + i).toList();
        String opened = ServerSigned.sign(ServerSigned.claims(userId, "Sara").groups(Set.copyOf(groups)));
        String renewal = ServerSigned.sign(
                ServerSigned.claims(userId, "Sara").groups(Set.copyOf(groups)).expiresIn(7200));
        assertTrue(renewal.length() > 9_000, "the token must be long: " + renewal.length());
        try (WsClient client = WsClient.connect(base, opened)) {
            client.welcome();
            JsonNode reply = client.request("reauth", Map.of("accessToken", renewal));
            assertEquals("reauthed", reply.path("event").asText(), "a long token renews the socket: " + reply);
        }
    }

    @Test
    void anotherUsersTokenIsRefusedAndTheSocketStillEndsWithItsOwnToken() {
        String userId = "sara-" + UUID.randomUUID();
        try (WsClient client = WsClient.connect(base, endingIn(userId, LIFE_SECONDS))) {
            client.welcome();
            JsonNode reply = client.request(
                    "reauth",
                    Map.of("accessToken", ServerSigned.sign(ServerSigned.claims("omar-" + UUID.randomUUID(), "Omar"))));

            assertEquals("error", reply.path("event").asText(), "another user's token must be refused: " + reply);
            assertEquals("UNAUTHORIZED", reply.path("data").path("code").asText(), reply.toString());
            assertEquals(
                    4401,
                    client.awaitClosedByServer(Duration.ofSeconds(15)),
                    "the refused reauth changed nothing: the socket ends with its own token");
        }
    }

    @Test
    void refusedReauthLeavesTheIdentityAsItWas() {
        String userId = "sara-" + UUID.randomUUID();
        try (WsClient client = WsClient.connect(base, ServerSigned.sign(ServerSigned.claims(userId, "Sara")))) {
            client.welcome();
            client.request(
                    "reauth",
                    Map.of("accessToken", ServerSigned.sign(ServerSigned.claims("omar-" + UUID.randomUUID(), "Omar"))));
            JsonNode touched = client.request("touch", Map.of());
            assertEquals("touched", touched.path("event").asText(), "the socket stays usable after a refused reauth");
            assertFalse(client.isClosed());
        }
    }

    static Stream<Arguments> badTokens() throws NoSuchAlgorithmException {
        var foreignKey = KeyPairGenerator.getInstance("RSA").generateKeyPair().getPrivate();
        return Stream.of(
                bad("not a JWT", user -> "garbage"),
                bad("three dots", user -> "a.b.c"),
                bad(
                        "for another application",
                        user -> ServerSigned.sign(
                                ServerSigned.claims(user, "Sara").audience("billing"))),
                bad(
                        "of another issuer",
                        user -> ServerSigned.sign(Jwt.issuer("elsewhere")
                                .audience(ServerSigned.AUDIENCE)
                                .subject(user)
                                .expiresIn(3600))),
                bad(
                        "signed by another key",
                        user -> ServerSigned.claims(user, "Sara").sign(foreignKey)),
                bad(
                        "ended a moment ago",
                        user -> ServerSigned.sign(ServerSigned.claims(user, "Sara")
                                .issuedAt(Instant.now().minusSeconds(60))
                                .expiresAt(Instant.now().minusSeconds(5)))),
                bad(
                        "ended an hour ago",
                        user -> ServerSigned.sign(ServerSigned.claims(user, "Sara")
                                .issuedAt(Instant.now().minusSeconds(7200))
                                .expiresAt(Instant.now().minusSeconds(3600)))),
                // Signed as it should be, but its times are beyond any calendar (and Instant's milliseconds).
                bad(
                        "ending in the year 300 million",
                        user -> ServerSigned.sign(
                                ServerSigned.claims(user, "Sara").expiresAt(10_000_000_000_000_000L))),
                bad(
                        "ending in the year 1.2 billion",
                        user -> ServerSigned.sign(
                                ServerSigned.claims(user, "Sara").expiresAt(40_000_000_000_000_000L))),
                bad(
                        "issued in the year 1.2 billion",
                        user -> ServerSigned.sign(
                                ServerSigned.claims(user, "Sara").issuedAt(40_000_000_000_000_000L))));
    }

    private static Arguments bad(String name, Function<String, String> token) {
        return Arguments.of(name, token);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTokens")
    void badTokenIsRefusedWithUnauthorized(String name, Function<String, String> tokenFor) {
        String userId = "sara-" + UUID.randomUUID();
        try (WsClient client = WsClient.connect(base, ServerSigned.sign(ServerSigned.claims(userId, "Sara")))) {
            client.welcome();
            String ref = client.send("reauth", Map.of("accessToken", tokenFor.apply(userId)));
            JsonNode reply = client.reply(ref);
            assertEquals("error", reply.path("event").asText(), name + ": must be refused: " + reply);
            assertEquals("UNAUTHORIZED", reply.path("data").path("code").asText(), name + ": " + reply);
            assertEquals(
                    "touched",
                    client.request("touch", Map.of()).path("event").asText(),
                    name + ": the socket stays usable");
        }
    }

    private static String endingIn(String userId, int seconds) {
        return ServerSigned.sign(
                ServerSigned.claims(userId, "Sara").expiresAt(Instant.now().plusSeconds(seconds)));
    }
}
