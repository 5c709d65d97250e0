package io.editlock.lock;

import static io.editlock.support.Api.as;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.ScriptExecutor;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.FrozenRedis;
import io.editlock.support.Holding;
import io.editlock.support.ScriptHooks;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §2: one configurator per user, also when a switch fails half-way. Sara holds
 * configurator 1 and asks for 2; the store stalls (SIGSTOP) as the switch releases 1, and is back when
 * the node handles the failure: she is told UNAVAILABLE and keeps 1. Her next switch, to 3, must take 1
 * away: she never holds two.
 */
@QuarkusTest
@TestProfile(FrozenRedis.class)
class FailedSwitchTest {

    @Inject
    PipelinedRedis redis;

    @Inject
    ScriptExecutor scripts;

    @TestHTTPResource("/")
    URI base;

    @Test
    void aSwitchThatFailedAsItReleasedTheOldConfiguratorStillLeavesOneConfigurator() {
        TestUser sara = DemoLogin.user("Sara");
        long first = Api.configurator(sara);
        long second = Api.configurator(sara);
        long third = Api.configurator(sara);
        try (Holding mine = Holding.connect(base, sara)) {
            mine.configurator(first);
            // Redis holds every script, as a node that turned ready has made sure: what waits in the frozen
            // Redis runs as it would in production once it is thawed.
            scripts.preload().await().atMost(Duration.ofSeconds(10));

            ScriptHooks hooks = ScriptHooks.install(redis);
            hooks.beforeNext("release_lock", FrozenRedis::frozen);
            // The store is back by the time the node handles the failed release.
            FrozenRedis.thawAtNext(hooks, "put_back_user_configurator");
            JsonNode failed;
            try {
                failed = mine.socket().request("lock-configurator", Map.of("configuratorId", second));
            } finally {
                FrozenRedis.thaw();
            }
            assertEquals("UNAVAILABLE", failed.path("data").path("code").asText(), failed.toString());
            // What waited in Redis runs now: the second configurator is given back, nothing else changes.
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> as(sara).get("/api/configurators/" + second + "/locks")
                            .then()
                            .statusCode(200)
                            .body("$", empty()));
            as(sara).get("/api/configurators/" + first + "/locks")
                    .then()
                    .statusCode(200)
                    .body("size()", equalTo(1));

            JsonNode switched = mine.socket().request("lock-configurator", Map.of("configuratorId", third));
            assertEquals("lock-acquired", switched.path("event").asText(), switched.toString());
            assertEquals(
                    first,
                    switched.path("data")
                            .path("released")
                            .path(0)
                            .path("configuratorId")
                            .asLong(),
                    "the switch takes the configurator Sara kept: " + switched);
            as(sara).get("/api/configurators/" + first + "/locks")
                    .then()
                    .statusCode(200)
                    .body("$", empty());
        }
    }
}
