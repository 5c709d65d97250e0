package io.editlock.socketio;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.PipelinedRedis;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.ScriptHooks;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4 and §12: over Socket.IO as over {@code /locking}, a grant that an admin breaks
 * before its reply leaves the node is acknowledged, and the acknowledgement is followed by the
 * {@code lock-lost} the client heard too early to understand.
 */
@QuarkusTest
class SocketIoGrantEndedBeforeItsReplyTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String LOST = "42/locking,[\"lock-lost\"";

    @TestHTTPResource("/")
    URI base;

    @Inject
    PipelinedRedis pipelined;

    @Test
    void theAcknowledgedGrantIsFollowedByItsEnd() {
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser ada = DemoLogin.user("Ada", "admin");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        EngineIoClient sara = EngineIoClient.connected(saraUser);
        try (WsClient saraElsewhere = WsClient.connect(base, saraUser.token())) {
            saraElsewhere.welcome();
            ScriptHooks.install(pipelined)
                    .afterNext(
                            "acquire_lock",
                            () -> Uni.createFrom().completionStage(CompletableFuture.runAsync(() -> {
                                as(ada).delete("/api/locks/item:" + item + ":filters")
                                        .then()
                                        .statusCode(204);
                                saraElsewhere.awaitEvent(
                                        frame -> "lock-lost"
                                                .equals(frame.path("event").asText()),
                                        WAIT);
                            })));

            sara.post("42/locking,1[\"lock-item-subresource\",{\"itemId\":" + item + ",\"page\":\"filters\"}]");
            List<String> toTheAck =
                    sara.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43/locking,1")));
            // Whatever follows the acknowledgement is sent before that of a request sent after it.
            sara.post("42/locking,2[\"touch\",{}]");
            List<String> toTheNext =
                    sara.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43/locking,2")));

            String ack = toTheAck.stream()
                    .filter(packet -> packet.startsWith("43/locking,1"))
                    .findFirst()
                    .orElseThrow();
            assertTrue(ack.contains("\"event\":\"lock-acquired\""), ack);
            List<String> after = new ArrayList<>(toTheAck.subList(toTheAck.indexOf(ack) + 1, toTheAck.size()));
            after.addAll(toTheNext);
            List<String> lost =
                    after.stream().filter(packet -> packet.startsWith(LOST)).toList();
            assertEquals(1, lost.size(), "lock-lost once after the acknowledgement: " + toTheAck + " " + toTheNext);
            assertTrue(lost.get(0).contains("\"reason\":\"admin\""), lost.toString());
        }
    }
}
