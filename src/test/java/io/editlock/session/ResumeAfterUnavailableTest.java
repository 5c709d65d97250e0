package io.editlock.session;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.FrozenRedis;
import io.editlock.support.ScriptHooks;
import io.editlock.support.StoreLocks;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4, §5: a {@code resume} answered UNAVAILABLE changed nothing the client can see:
 * its token is still good, and a retry brings the locks back. Redis is frozen (SIGSTOP) right before
 * one step of the resume, so that the step waits in it and runs once it is thawed, after the server
 * gave up on it: the store answered too late, which is how a store under strain fails.
 */
@QuarkusTest
@TestProfile(FrozenRedis.class)
class ResumeAfterUnavailableTest {

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
    LeaseRenewer renewer;

    @Test
    void aResumeWhoseMoveTheStoreAnsweredTooLateCanBeRetried() {
        retriedAfterUnavailable("move_socket_locks");
    }

    @Test
    void aResumeWhoseClaimTheStoreAnsweredTooLateCanBeRetried() {
        retriedAfterUnavailable("claim_resume");
    }

    /**
     * The old socket is still renewed while it waits for its resume: a renewal that runs between the
     * attempt the store answered too late and the retry must leave the old socket's index whole, for
     * the retry reads it to find the locks the late move moved already.
     */
    @Test
    void aResumeWhoseMoveRanLateCanBeRetriedAfterARenewal() {
        retriedAfterUnavailable("move_socket_locks", true);
    }

    private void retriedAfterUnavailable(String slowStep) {
        retriedAfterUnavailable(slowStep, false);
    }

    private void retriedAfterUnavailable(String slowStep, boolean renewBeforeRetry) {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        WsClient dropped = WsClient.connect(base, sara.token());
        JsonNode granted = dropped.request("lock-variables", Map.of("configuratorId", c));
        assertEquals("lock-acquired", granted.path("event").asText(), granted.toString());
        String resumeToken = dropped.resumeToken();
        dropped.drop();
        awaitDropped(resumeToken);

        try (WsClient next = WsClient.connect(base, sara.token())) {
            next.welcome();
            ScriptHooks.install(redis).beforeNext(slowStep, FrozenRedis::frozen);
            JsonNode refused;
            try {
                refused = next.request("resume", Map.of("resumeToken", resumeToken));
            } finally {
                FrozenRedis.thaw();
            }
            assertEquals("UNAVAILABLE", refused.path("data").path("code").asText(), refused.toString());
            if (renewBeforeRetry) {
                await("the late move has moved the lock to the new socket")
                        .atMost(Duration.ofSeconds(10))
                        .until(() -> StoreLocks.keptBy(data, keys, c, next.socketId()));
                renewer.renewAll().await().atMost(Duration.ofSeconds(10));
            }

            JsonNode resumed = next.request("resume", Map.of("resumeToken", resumeToken));
            assertEquals("resumed", resumed.path("event").asText(), "the token must still be good: " + resumed);
            JsonNode lock = resumed.path("data").path("locks").path(0);
            assertEquals(
                    granted.path("data").path("lock").path("token").asLong(),
                    lock.path("token").asLong(),
                    "the same grant comes back: " + resumed);
            JsonNode unlocked = next.request("unlock-variables", Map.of("configuratorId", c));
            assertEquals("lock-released", unlocked.path("event").asText(), "the new socket holds it: " + unlocked);
        }
    }

    private void awaitDropped(String resumeToken) {
        await("the server marks the socket dropped")
                .atMost(Duration.ofSeconds(10))
                .until(() -> {
                    Response state = data.execute(Command.HGET, keys.resume(resumeToken), "state")
                            .await()
                            .atMost(Duration.ofSeconds(5));
                    return state != null && "dropped".equals(state.toString());
                });
    }
}
