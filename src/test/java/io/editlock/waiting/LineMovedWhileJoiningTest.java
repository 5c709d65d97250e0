package io.editlock.waiting;

import static io.editlock.support.Sockets.page;
import static io.editlock.support.Sockets.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §14: a waiter always learns where they are. Dora joins the line while it moves:
 * her wait_for has run, and the node has not yet noted her place, when Anna unlocks and Bob, first
 * in line, is served. The move is announced before the node knows Dora waits; her reply must still
 * say where she is now.
 */
@QuarkusTest
class LineMovedWhileJoiningTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    PipelinedRedis redis;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void aPlaceTakenWhileTheLineMovedIsAnsweredWithWhereItIsNow() throws Exception {
        TestUser annaUser = DemoLogin.user("Anna");
        long c = Api.configurator(annaUser);
        long item = Api.item(annaUser, c, null);
        Map<String, Object> filters = page(item, "filters");
        WsClient anna = sockets.connect(base, annaUser);
        WsClient bob = sockets.connect(base, DemoLogin.user("Bob"));
        WsClient carl = sockets.connect(base, DemoLogin.user("Carl"));
        WsClient dora = sockets.connect(base, DemoLogin.user("Dora"));
        assertEquals(
                "lock-acquired",
                anna.request("lock-item-subresource", filters).path("event").asText());
        assertEquals(1, position(bob.request("wait-for", Map.of("resource", resource(item, "filters")))));
        assertEquals(2, position(carl.request("wait-for", Map.of("resource", resource(item, "filters")))));

        CompletableFuture<JsonNode> unlocked = new CompletableFuture<>();
        ScriptHooks hooks = ScriptHooks.install(redis);
        hooks.afterNextBlocking("wait_for", () -> {
            // Dora's place is taken (third); before the node notes it, the line moves and is announced.
            unlocked.complete(anna.request("unlock-item-subresource", filters));
            carl.awaitEvent(frame -> "queue-updated".equals(frame.path("event").asText()), WAIT);
        });
        JsonNode queued = dora.request("wait-for", Map.of("resource", resource(item, "filters")));

        assertEquals("lock-released", unlocked.get().path("event").asText());
        assertEquals(2, position(queued), "Dora is second now, behind Carl: " + queued + " then " + dora.received());
    }

    private static long position(JsonNode queued) {
        assertEquals("queued", queued.path("event").asText(), queued.toString());
        return queued.path("data").path("position").asLong();
    }
}
