package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Holder;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import io.editlock.redis.PipelinedRedis;
import io.editlock.session.ResumeStore;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §5, §13, §14: a resume moves the old socket's places in lines and take-over
 * requests to the new socket, and this node then follows them. One that ends while the resume moves
 * it (the line serves the user, the holder hands the page over) was heard of before the node recorded
 * it, and must not be recorded after: the node would follow for good a place or a request that is gone.
 * Sara waited or asked from a socket of another node (taken in the store directly) and resumes here;
 * Tom frees the page right after the move, before the node has recorded what it moved.
 */
@QuarkusTest
class EndedWhileResumingTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    WaitingScripts scripts;

    @Inject
    WaitingLines lines;

    @Inject
    Takeovers takeovers;

    @Inject
    WaitingState state;

    @Inject
    ResumeStore resumes;

    @Inject
    PipelinedRedis pipelined;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a place in the line", "a take-over request"})
    void whatEndedWhileTheResumeMovedItIsNotFollowed(String what) {
        boolean line = what.startsWith("a place");
        TestUser saraUser = DemoLogin.user("Sara");
        TestUser tomUser = DemoLogin.user("Tom");
        long c = Api.configurator(tomUser);
        long item = Api.item(tomUser, c, null);
        Resource filters = Resource.itemPage(item, Page.FILTERS).inConfigurator(c);
        Map<String, Object> page = Map.of("itemId", item, "page", "filters");
        WsClient tom = sockets.connect(base, tomUser);
        assertEquals(
                "lock-acquired",
                tom.request("lock-item-subresource", page).path("event").asText());

        Holder elsewhere = new Holder(saraUser.id(), "Sara", "elsewhere-" + UUID.randomUUID(), "other-node");
        lines.listedFirst(elsewhere.socketId(), c, () -> Uni.createFrom().voidItem())
                .await()
                .atMost(WAIT);
        if (line) {
            assertInstanceOf(
                    WaitReply.Queued.class,
                    scripts.waitFor(filters, elsewhere, true, 1).await().atMost(WAIT));
        } else {
            assertInstanceOf(
                    TakeoverReply.Pending.class,
                    scripts.requestTakeover(filters, elsewhere, "please", Duration.ofMinutes(5), 1)
                            .await()
                            .atMost(WAIT));
            tom.awaitEvent(frame -> frame.path("event").asText().equals("takeover-requested"), WAIT);
        }
        String resumeToken = "resume-" + UUID.randomUUID();
        resumes.recordLive(resumeToken, elsewhere.socketId(), saraUser.id(), elsewhere.nodeId())
                .await()
                .atMost(WAIT);
        resumes.markDropped(resumeToken, Duration.ofMinutes(1)).await().atMost(WAIT);
        WsClient sara = sockets.connect(base, saraUser);

        ScriptHooks.install(pipelined)
                .afterNext(
                        "move_socket_locks",
                        () -> Uni.createFrom()
                                .item(() -> {
                                    if (line) {
                                        tom.request("unlock-item-subresource", page);
                                    } else {
                                        takeovers
                                                .answer(filters, tomUser.id(), true)
                                                .await()
                                                .atMost(WAIT);
                                    }
                                    // The end is heard here, and handed to Sara's new socket, before the move's reply.
                                    return sara.awaitEvent(frame -> grantOf(frame, filters), WAIT);
                                })
                                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                                .replaceWithVoid());
        JsonNode resumed = sara.request("resume", Map.of("resumeToken", resumeToken));

        assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
        assertFalse(state.waits(saraUser.id(), c, filters.field()), "the node follows a place that was served");
        assertFalse(state.askedConfigurators().contains(c), "the node follows a take-over request that ended");
    }

    private static boolean grantOf(JsonNode frame, Resource resource) {
        String event = frame.path("event").asText();
        return (event.equals("lock-acquired") || event.equals("takeover-granted"))
                && frame.path("data")
                                .path("lock")
                                .path("resource")
                                .path("itemId")
                                .asLong()
                        == resource.itemId();
    }
}
