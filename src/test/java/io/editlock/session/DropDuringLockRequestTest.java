package io.editlock.session;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.protocol.CloseReasons;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.ScriptHooks;
import io.editlock.support.StoreLocks;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5: a socket that drops while one of its lock requests is in hand ends only once
 * that request is answered. The grant it makes then belongs to the dropped socket's locks, which a
 * resume moves; it is never left on a socket nobody renews or resumes (and would block the page for
 * the whole grace period, a lock its user was never told of). The acquire script is held back at the
 * moment it would go out, the socket drops meanwhile, and a new socket resumes.
 */
@QuarkusTest
class DropDuringLockRequestTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    PipelinedRedis redis;

    @Inject
    ReactiveRedisDataSource data;

    @Inject
    LockKeys keys;

    @Inject
    SessionRegistry registry;

    @Inject
    SessionLifecycle lifecycle;

    @Test
    void aGrantMadeAfterItsSocketDroppedComesBackWithTheResume() {
        long held = Fixtures.configurator(store);
        long asked = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        WsClient dropped = WsClient.connect(base, sara.token());
        JsonNode variables = dropped.request("lock-variables", Map.of("configuratorId", held));
        assertEquals("lock-acquired", variables.path("event").asText(), variables.toString());
        String resumeToken = dropped.resumeToken();
        String droppedSocket = dropped.socketId();

        ScriptHooks.Gate gate = ScriptHooks.install(redis).holdNext("acquire_lock");
        dropped.send("lock-configurator", Map.of("configuratorId", asked));
        gate.awaitReached();
        dropped.drop();

        try (WsClient next = WsClient.connect(base, sara.token())) {
            next.welcome();
            JsonNode early = next.request("resume", Map.of("resumeToken", resumeToken));
            assertEquals(
                    "RESUME_FAILED",
                    early.path("data").path("code").asText(),
                    "the old socket is not gone while its request is in hand: " + early);
            gate.open();

            JsonNode resumed = next.resumeOnceDropNoted(resumeToken);
            assertEquals("resumed", resumed.path("event").asText(), resumed.toString());
            assertEquals(2, resumed.path("data").path("locks").size(), "both locks come back: " + resumed);
            assertTrue(StoreLocks.keptBy(data, keys, asked, next.socketId()), "the late grant is the new socket's");
            assertFalse(StoreLocks.keptBy(data, keys, asked, droppedSocket), "and no longer the dropped socket's");
        }
    }

    /**
     * A socket its client closed with 1000 while a request of it was in hand is still being ended when the
     * server ends every socket (a node stop, a sweep): its end is its client's, released at once, not a
     * drop kept for the grace period.
     */
    @Test
    void aSocketItsClientClosedIsNotTurnedIntoADropByTheServer() {
        long asked = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        WsClient done = WsClient.connect(base, sara.token());
        done.welcome();
        SocketSession session = registry.find(done.socketId()).orElseThrow();

        ScriptHooks.Gate gate = ScriptHooks.install(redis).holdNext("acquire_lock");
        done.send("lock-configurator", Map.of("configuratorId", asked));
        gate.awaitReached();
        done.closeCleanly();
        await("the close reached the server")
                .atMost(Duration.ofSeconds(10))
                .until(() -> !session.connection().isOpen());

        lifecycle.closeByServer(session, CloseReasons.NODE_STOPPING);
        gate.open();

        await("the socket's end is handled")
                .atMost(Duration.ofSeconds(10))
                .until(() -> registry.find(done.socketId()).isEmpty());
        assertFalse(
                lifecycle.droppedSessions().contains(session),
                "a socket its client closed with 1000 is not kept for a resume");
        await("its late grant is released at once")
                .atMost(Duration.ofSeconds(5))
                .until(() -> !StoreLocks.keptBy(data, keys, asked, done.socketId()));
    }
}
