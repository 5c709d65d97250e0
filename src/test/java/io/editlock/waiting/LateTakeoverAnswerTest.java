package io.editlock.waiting;

import static io.editlock.support.Sockets.filters;
import static io.editlock.support.Sockets.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Api;
import io.editlock.support.AuditLines;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §13: "A accepts, or does not answer before the deadline: the lock passes to B".
 * The sweep that resolves the request at its deadline is held back here until the holder has
 * answered, so an answer after the deadline reaches a request that is still stored: it must not
 * refuse, whatever it says.
 */
@QuarkusTest
@TestProfile(TakeoverTest.ShortConsent.class)
class LateTakeoverAnswerTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    PipelinedRedis pipelined;

    @ParameterizedTest(name = "accept {0}")
    @ValueSource(booleans = {false, true})
    void anAnswerAfterTheDeadlineHandsThePageOver(boolean accept) {
        TestUser anna = DemoLogin.user("Anna");
        long c = Api.configurator(anna);
        long item = Api.item(anna, c, null);
        try (Sockets sockets = new Sockets();
                AuditLines audit = AuditLines.capture()) {
            WsClient annaSocket = sockets.connect(base, anna);
            WsClient ben = sockets.connect(base, DemoLogin.user("Ben"));
            JsonNode held = annaSocket.request("lock-item-subresource", page(item));
            assertEquals("lock-acquired", held.path("event").asText(), held.toString());
            JsonNode pending = ben.request("request-takeover", Map.of("resource", filters(item)));
            assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
            annaSocket.awaitEvent("takeover-requested");
            String field = "i:" + item + ":filters";
            CompletableFuture<Void> swept = new CompletableFuture<>();
            CompletableFuture<Void> answered = new CompletableFuture<>();
            ScriptHooks.install(pipelined)
                    .beforeNext(
                            "resolve_takeover",
                            args -> args.get(0).equals(field) && args.get(1).equals(String.valueOf(c)),
                            () -> {
                                swept.complete(null); // the deadline passed: a sweep came to resolve it
                                return Uni.createFrom().completionStage(answered);
                            });
            swept.orTimeout(TakeoverTest.CONSENT.toSeconds() + 10, TimeUnit.SECONDS)
                    .join();

            JsonNode answer =
                    annaSocket.request("answer-takeover", Map.of("resource", filters(item), "accept", accept));
            answered.complete(null);

            if (accept) {
                assertEquals("takeover-answered", answer.path("event").asText(), answer.toString());
            } else {
                assertEquals("NOT_FOUND", answer.path("data").path("code").asText(), "too late to refuse: " + answer);
            }
            JsonNode granted = ben.awaitEvent("takeover-granted");
            assertEquals(
                    item,
                    granted.path("data")
                            .path("lock")
                            .path("resource")
                            .path("itemId")
                            .asLong(),
                    granted.toString());
            JsonNode lost = annaSocket.awaitEvent("lock-lost");
            assertEquals("taken-over", lost.path("data").path("reason").asText(), lost.toString());
            assertTrue(ben.events("takeover-refused").isEmpty(), "Ben was told a refusal: " + ben.received());
            // In the audit log and the metric, as the sweep would have counted it: no answer in time.
            audit.await(
                    "the late answer audited as a timeout",
                    line -> line.startsWith("takeover-timeout ") && line.contains("item:" + item + ":filters"));
        }
    }
}
