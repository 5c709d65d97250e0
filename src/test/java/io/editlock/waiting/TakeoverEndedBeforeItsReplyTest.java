package io.editlock.waiting;

import static io.editlock.support.Sockets.page;
import static io.editlock.support.Sockets.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Holder;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.session.NodeIdentity;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.PubSubOutage;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §13: an asker gets one outcome. The end of a request travels apart from the reply
 * to the request, and may arrive first: Sara refuses before the node has read the reply to Tom's
 * {@code request-takeover}. The node must not then keep the request as one that stands, or the next
 * catch-up (after its subscription was down) tells Tom the outcome a second time.
 */
@QuarkusTest
class TakeoverEndedBeforeItsReplyTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    PipelinedRedis pipelined;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    Takeovers takeovers;

    @Inject
    NodeIdentity node;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void aRefusalHeardBeforeTheReplyIsTheAskersOnlyOutcome() {
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

        ScriptHooks.install(pipelined)
                .afterNext(
                        "request_takeover",
                        () -> Uni.createFrom().completionStage(CompletableFuture.runAsync(() -> {
                            takeovers
                                    .answer(Resource.itemPage(item, Page.FILTERS), saraUser.id(), false)
                                    .await()
                                    .atMost(WAIT);
                            tom.awaitEvent(unasked("takeover-refused"), WAIT);
                        })));
        JsonNode pending =
                tom.request("request-takeover", Map.of("resource", resource(item, "filters"), "message", "please"));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());

        // A catch-up of the configurator: Ola asks for Sara's other page while the node hears nothing,
        // and Sara is told once the node listens again.
        TestUser olaUser = DemoLogin.user("Ola");
        WsClient ola = sockets.connect(base, olaUser);
        PubSubOutage.missed(
                redis,
                keys.lockEventsChannel(),
                () -> ola,
                asker -> takeovers
                        .request(
                                Resource.itemPage(item, Page.ATTRIBUTES),
                                new Holder(olaUser.id(), "Ola", asker.socketId(), node.id()),
                                "")
                        .await()
                        .atMost(WAIT));
        sara.awaitEvent(
                frame -> unasked("takeover-requested").test(frame)
                        && frame.path("data").path("byUserId").asText().equals(olaUser.id()),
                WAIT);

        WsClient.stays(() -> tom.events("takeover-refused").size() == 1, Duration.ofSeconds(2), "Tom is told once");
        assertTrue(tom.events("takeover-granted").isEmpty(), tom.received().toString());
    }

    private static Predicate<JsonNode> unasked(String name) {
        return frame -> name.equals(frame.path("event").asText()) && !frame.has("ref");
    }
}
