package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.session.ResumeStore;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.PubSubOutage;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5 and §13: a resume carries a take-over request over to the new socket, also on
 * another node, and that node then tells the asker how it ends, also when it missed the end (its
 * subscription was down). Tom asked from a socket of another node (its request taken in the store
 * directly, so this node never heard of it) and resumes here; Sara hands the page over while this node
 * hears nothing.
 */
@QuarkusTest
class ResumedAskerCatchUpTest {

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
    ResumeStore resumes;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void anAskerWhoResumedHereIsToldOfAHandOverThisNodeMissed() {
        Scene scene = PubSubOutage.missed(redis, keys.lockEventsChannel(), Scene::new, Scene::saraHandsOver);

        JsonNode granted = scene.tom.awaitEvent(
                frame -> frame.path("event").asText().equals("takeover-granted") && !frame.has("ref"), WAIT);
        assertEquals(
                scene.tomUser.id(),
                granted.path("data").path("lock").path("ownerUserId").asText(),
                granted.toString());
    }

    /** Sara holds a page Tom asked for from another node; Tom has resumed that socket here. */
    private final class Scene {
        final TestUser saraUser = DemoLogin.user("Sara");
        final TestUser tomUser = DemoLogin.user("Tom");
        final long c = Api.configurator(saraUser);
        final long item = Api.item(saraUser, c, null);
        final Resource filters = Resource.itemPage(item, Page.FILTERS).inConfigurator(c);
        final WsClient tom;

        Scene() {
            WsClient sara = sockets.connect(base, saraUser);
            assertEquals(
                    "lock-acquired",
                    sara.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"))
                            .path("event")
                            .asText());
            SocketElsewhere elsewhere = SocketElsewhere.of(tomUser, lines, c);
            elsewhere.asksFor(scripts, filters);
            sara.awaitEvent(frame -> frame.path("event").asText().equals("takeover-requested"), WAIT);
            String resumeToken = elsewhere.dropped(resumes);
            tom = sockets.connect(base, tomUser);
            JsonNode resumed = tom.request("resume", Map.of("resumeToken", resumeToken));
            assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
        }

        void saraHandsOver() {
            assertTrue(
                    takeovers
                            .answer(filters, saraUser.id(), true)
                            .await()
                            .atMost(WAIT)
                            .isPresent(),
                    "Sara's answer must find Tom's request");
        }
    }
}
