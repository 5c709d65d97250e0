package io.editlock.waiting;

import static io.editlock.support.Sockets.page;
import static io.editlock.support.Sockets.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: a socket that holds anything in a configurator watches it. A lock request joins
 * the configurator's room for its answer and leaves it again when refused. Here Tom's request for
 * Sara's attributes page is refused in the very moment Sara hands him her filters page (a take-over he
 * asked for): he holds a page there now, so he must stay in the room and hear what happens in it.
 */
@QuarkusTest
class RefusedRequestBesideAHandOverTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    PipelinedRedis pipelined;

    @Inject
    Takeovers takeovers;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void aSocketHandedAPageWhileItsRequestWasRefusedStillHearsTheConfigurator() {
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = sockets.connect(base, saraUser);
        WsClient tom = sockets.connect(base, tomUser);
        assertEquals(
                "lock-acquired",
                sara.request("lock-item-subresource", page(item, "filters"))
                        .path("event")
                        .asText());
        assertEquals(
                "lock-acquired",
                sara.request("lock-item-subresource", page(item, "attributes"))
                        .path("event")
                        .asText());
        JsonNode pending = tom.request("request-takeover", Map.of("resource", resource(item, "filters")));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());

        ScriptHooks.install(pipelined)
                .afterNext(
                        "acquire_lock",
                        () -> Uni.createFrom().completionStage(CompletableFuture.runAsync(() -> {
                            takeovers
                                    .answer(Resource.itemPage(item, Page.FILTERS), saraUser.id(), true)
                                    .await()
                                    .atMost(WAIT);
                            tom.awaitEvent(frame -> frame.path("event").asText().equals("takeover-granted"), WAIT);
                        })));
        JsonNode refused = tom.request("lock-item-subresource", page(item, "attributes"));
        assertEquals("LOCKED", refused.path("data").path("code").asText(), refused.toString());

        JsonNode unlocked = sara.request("unlock-item-subresource", page(item, "attributes"));
        assertEquals("lock-released", unlocked.path("event").asText(), unlocked.toString());
        JsonNode heard = tom.awaitEvent(
                frame -> frame.path("event").asText().equals("lock-released")
                        && !frame.has("ref")
                        && frame.path("data")
                                .path("resource")
                                .path("page")
                                .asText()
                                .equals("attributes"),
                WAIT);
        assertEquals(
                c, heard.path("data").path("resource").path("configuratorId").asLong(), heard.toString());
    }
}
