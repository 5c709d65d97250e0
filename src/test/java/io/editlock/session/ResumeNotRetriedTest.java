package io.editlock.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.RenewedShortLeases;
import io.editlock.support.ScriptHooks;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5, §6: a resume answered UNAVAILABLE whose move the store carried out all the same
 * leaves the locks with the new socket, whose client was told nothing of them. A retry would tell it;
 * a client that never retries must not keep the page taken for as long as its socket lives: once a
 * retry can no longer come, the grant is no longer renewed, its lease runs out, and its end is announced.
 */
@QuarkusTest
@TestProfile(RenewedShortLeases.class)
class ResumeNotRetriedTest {

    /** The grace period (2 s) and a renew interval, then the lease (4 s), then the reaper: with room. */
    private static final Duration ENDS_WITHIN = Duration.ofSeconds(30);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    PipelinedRedis redis;

    @Test
    void locksMovedByAResumeAnsweredUnavailableEndWhenTheResumeIsNotRetried() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        Map<String, Object> variables = Map.of("configuratorId", c);
        try (WsClient watcher = WsClient.connect(base, DemoLogin.user("Wu").token());
                WsClient next = WsClient.connect(base, sara.token())) {
            watcher.request("watch", variables);
            WsClient dropped = WsClient.connect(base, sara.token());
            assertEquals(
                    "lock-acquired",
                    dropped.request("lock-variables", variables).path("event").asText());
            String resumeToken = dropped.resumeToken();
            dropped.drop();

            // The move runs; its answer is lost, as when the store answers after the node gave up on it.
            ScriptHooks.install(redis)
                    .afterNext(
                            "move_socket_locks",
                            () -> Uni.createFrom().failure(new IllegalStateException("answered too late")));
            JsonNode refused = next.resumeOnceDropNoted(resumeToken);
            assertEquals("UNAVAILABLE", refused.path("data").path("code").asText(), refused.toString());

            JsonNode released =
                    watcher.awaitEvent(frame -> frame.path("event").asText().equals("lock-released"), ENDS_WITHIN);
            assertEquals("expired", released.path("data").path("reason").asText(), released.toString());
            try (WsClient omar = WsClient.connect(base, DemoLogin.user("Omar").token())) {
                JsonNode other = omar.request("lock-variables", variables);
                assertEquals("lock-acquired", other.path("event").asText(), "the page is free: " + other);
            }
        }
    }
}
