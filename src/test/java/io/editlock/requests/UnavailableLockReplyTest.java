package io.editlock.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.FrozenRedis;
import io.editlock.support.ScriptHooks;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: a refusal names the resource with its {@code configuratorId} whenever the server
 * knows it. An item page's lock request that the store does not answer in time (Redis frozen with
 * SIGSTOP as the decision goes out) failed after the item was found: its configurator is known.
 */
@QuarkusTest
@TestProfile(FrozenRedis.class)
class UnavailableLockReplyTest {

    @Inject
    PipelinedRedis redis;

    @TestHTTPResource("/")
    URI base;

    @Test
    void anItemPageRefusedUnavailableAfterItsItemWasFoundNamesItsConfigurator() {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        try (WsClient socket = WsClient.connect(base, sara.token())) {
            socket.welcome();

            ScriptHooks.install(redis).beforeNext("acquire_lock", FrozenRedis::frozen);
            JsonNode refused;
            try {
                refused = socket.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
            } finally {
                FrozenRedis.thaw();
            }

            assertEquals("lock-failed", refused.path("event").asText(), refused.toString());
            assertEquals("UNAVAILABLE", refused.path("data").path("code").asText(), refused.toString());
            JsonNode resource = refused.path("data").path("resource");
            assertEquals(item, resource.path("itemId").asLong(), refused.toString());
            assertEquals(c, resource.path("configuratorId").asLong(), "the item was found: " + refused);
        }
    }
}
