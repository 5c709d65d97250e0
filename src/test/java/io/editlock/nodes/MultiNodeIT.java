package io.editlock.nodes;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.TestRedis;
import io.editlock.support.WsClient;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Two nodes on one Redis, run as in production (no demo login, an Origin allow-list). */
class MultiNodeIT extends MultiNodeScenarios {

    @Test
    void demoLoginIsOffInProduction() {
        given().baseUri(nodeA.baseUri().toString())
                .contentType("application/json")
                .body(Map.of("userId", "7", "name", "Sara"))
                .when()
                .post("/api/auth/demo-login")
                .then()
                .statusCode(404);
    }

    @Test
    void onlyOriginsOfTheAllowListOpenTheSocket() {
        URI socket = URI.create(WsClient.locking(nodeA.baseUri()) + "?access_token=" + tokens.token("sara-o", "Sara"));
        assertEquals(
                Optional.empty(),
                WsClient.refusal(socket, Map.of("Origin", ALLOWED_ORIGIN)),
                "an allowed origin must open the socket");
        assertEquals(
                Optional.of(403),
                WsClient.refusal(socket, Map.of("Origin", "https://elsewhere.example.com")),
                "an origin outside the allow-list must be refused");
    }

    private RedisProcess redisProcess;

    @Override
    Map<String, String> startStore() {
        redisProcess = TestRedis.start();
        return Map.of("quarkus.redis.hosts", redisProcess.url());
    }

    @Override
    AutoCloseable store() {
        return redisProcess;
    }
}
