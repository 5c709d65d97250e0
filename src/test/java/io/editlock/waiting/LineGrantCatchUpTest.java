package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.LockService;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
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
 * docs/protocol.md §14 and §2: a grant from a waiting line is published to every node, and a node whose
 * subscription is down misses it. Once it listens again, the waiter learns of the grant, and a
 * configurator granted so replaces the waiter's previous configurator as a heard grant does: one
 * configurator per user holds however the grant reached the node.
 */
@QuarkusTest
class LineGrantCatchUpTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    LockService locks;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void aConfiguratorGrantedWhileTheNodeListenedToNothingReplacesTheWaitersOtherConfigurator() {
        Scene scene = PubSubOutage.missed(redis, keys.lockEventsChannel(), Scene::new, Scene::saraUnlocksInProcess);

        JsonNode granted = scene.tom.awaitEvent(LineGrantCatchUpTest::queuedGrant, WAIT);
        assertEquals(
                scene.wanted,
                granted.path("data")
                        .path("lock")
                        .path("resource")
                        .path("configuratorId")
                        .asLong(),
                granted.toString());
        JsonNode lost = scene.tom.awaitEvent(
                frame -> "lock-lost".equals(frame.path("event").asText())
                        && frame.path("data")
                                        .path("resource")
                                        .path("configuratorId")
                                        .asLong()
                                == scene.held,
                WAIT);
        assertEquals("replaced", lost.path("data").path("reason").asText(), lost.toString());
        assertEquals(
                "lock-acquired",
                scene.omar
                        .request("lock-configurator", Map.of("configuratorId", scene.held))
                        .path("event")
                        .asText(),
                "Tom's previous configurator must be free for others");
    }

    private static boolean queuedGrant(JsonNode frame) {
        return "lock-acquired".equals(frame.path("event").asText())
                && frame.path("data").path("queued").asBoolean();
    }

    /** Tom holds one configurator and waits in line for Sara's. */
    private final class Scene {
        final TestUser saraUser = DemoLogin.user("Sara");
        final TestUser tomUser = DemoLogin.user("Tom");
        final long held = Api.configurator(tomUser);
        final long wanted = Api.configurator(saraUser);
        final WsClient sara = sockets.connect(base, saraUser);
        final WsClient tom = sockets.connect(base, tomUser);
        final WsClient omar = sockets.connect(base, DemoLogin.user("Omar"));

        Scene() {
            assertEquals("lock-acquired", event(tom.request("lock-configurator", Map.of("configuratorId", held))));
            assertEquals("lock-acquired", event(sara.request("lock-configurator", Map.of("configuratorId", wanted))));
            assertEquals(
                    "queued",
                    event(tom.request(
                            "wait-for", Map.of("resource", Map.of("type", "configurator", "configuratorId", wanted)))));
        }

        void saraUnlocksInProcess() {
            assertInstanceOf(
                    ReleaseResult.Released.class,
                    locks.release(Resource.configurator(wanted), saraUser.id(), sara.socketId())
                            .await()
                            .atMost(WAIT));
        }
    }

    private static String event(JsonNode frame) {
        return frame.path("event").asText();
    }
}
