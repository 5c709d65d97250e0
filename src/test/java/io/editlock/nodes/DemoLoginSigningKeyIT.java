package io.editlock.nodes;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.RedisIndependent;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md: demo login on a node whose verification key is configured signs with the
 * private half the operator gives it ({@code smallrye.jwt.sign.key.location}); without it the node does
 * not start and names the missing setting, instead of answering every demo sign-in with 500.
 */
@RedisIndependent
class DemoLoginSigningKeyIT {

    private final TestTokens keys = TestTokens.generate();

    @Test
    void demoLoginWithAConfiguredPublicKeyAndNoSigningKeyStopsTheStart() throws IOException {
        try (RedisProcess redis = TestRedis.start();
                ServerNode node = ServerNode.launch("node-demo-no-sign-key", settings(redis))) {
            int exit = node.awaitExit(Duration.ofSeconds(60));
            String log = Files.readString(node.log());
            assertNotEquals(0, exit, "demo login without a key to sign with must stop the start; its log: " + log);
            assertTrue(
                    log.contains("set smallrye.jwt.sign.key.location"),
                    "the message must name the missing setting; the log: " + log);
        }
    }

    @Test
    void demoLoginSignsWithTheConfiguredPrivateKey() {
        try (RedisProcess redis = TestRedis.start()) {
            Map<String, String> settings = settings(redis);
            settings.put("smallrye.jwt.sign.key.location", keys.privateKeyFile().toString());
            try (ServerNode node = ServerNode.start("node-demo-sign-key", settings)) {
                String token = given().baseUri(node.baseUri().toString())
                        .contentType(ContentType.JSON)
                        .body(Map.of("userId", "sara", "name", "Sara"))
                        .post("/api/auth/demo-login")
                        .then()
                        .statusCode(200)
                        .extract()
                        .path("token");
                given().baseUri(node.baseUri().toString())
                        .auth()
                        .oauth2(token)
                        .get("/api/configurators")
                        .then()
                        .statusCode(200);
            }
        }
    }

    private Map<String, String> settings(RedisProcess redis) {
        Map<String, String> settings = new HashMap<>();
        settings.put("quarkus.redis.hosts", redis.url());
        settings.put("editlock.demo-login.enabled", "true");
        settings.put("mp.jwt.verify.publickey.location", keys.publicKeyFile().toString());
        return settings;
    }
}
