package io.editlock.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.ScriptExecutor;
import io.editlock.session.HeldLocks;
import io.editlock.session.SessionRegistry;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.FrozenRedis;
import io.editlock.support.HashSnapshot;
import io.editlock.support.Holding;
import io.editlock.support.ScriptHooks;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §6: a grant its socket keeps whose end its client was told is said to be brought
 * back by the store only when the store has it. A one-configurator switch that stalls as it releases
 * the old configurator gives the new grant back; a renewal that found that grant before it was given
 * back leaves a note of it, and nothing but the store tells whether the grant is still there.
 */
@QuarkusTest
@TestProfile(StrayWarningTest.RenewedEveryTwoSeconds.class)
class StrayWarningTest {

    private static final Duration INTERVAL = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(10);

    /** A Redis of its own to freeze, and renewals two seconds apart: a stray is judged after two. */
    public static class RenewedEveryTwoSeconds extends FrozenRedis {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> settings = new HashMap<>(super.getConfigOverrides());
            settings.put("editlock.lease.ttl", "8s");
            settings.put("editlock.lease.renew-interval", INTERVAL.toSeconds() + "s");
            return settings;
        }
    }

    @Inject
    PipelinedRedis redis;

    @Inject
    ScriptExecutor scripts;

    @Inject
    SessionRegistry registry;

    @Inject
    LockKeys keys;

    @Inject
    ReactiveRedisDataSource data;

    @TestHTTPResource("/")
    URI base;

    @Test
    void aGrantGivenBackAfterARenewalFoundItIsNotSaidToBeBroughtBack() {
        TestUser quinn = DemoLogin.user("Quinn");
        long old = Api.configurator(quinn);
        long next = Api.configurator(quinn);
        try (Holding mine = Holding.connect(base, quinn);
                Warnings warnings = Warnings.capture()) {
            mine.configurator(old);
            scripts.preload().await().atMost(WAIT);
            String socketId = mine.socket().socketId();
            HeldLocks held = registry.find(socketId).orElseThrow().heldLocks();

            ScriptHooks hooks = ScriptHooks.install(redis);
            // The switch stalls on the old configurator once a renewal found the new grant, of which the
            // client is told nothing yet.
            hooks.beforeNextBlocking("release_lock", () -> {
                await("a renewal finds the new grant")
                        .atMost(WAIT)
                        .pollInterval(Duration.ofMillis(10))
                        .until(() -> !held.neverTold(next).isEmpty());
                FrozenRedis.freeze();
            });
            FrozenRedis.thawAtNext(hooks, "put_back_user_configurator");
            JsonNode failed;
            try {
                failed = mine.socket().request("lock-configurator", Map.of("configuratorId", next));
            } finally {
                FrozenRedis.thaw();
            }
            assertEquals("UNAVAILABLE", failed.path("data").path("code").asText(), failed.toString());
            JsonNode lost = mine.socket().awaitEvent(frame -> aboutConfigurator(frame, "lock-lost", next));
            assertEquals("unlock", lost.path("data").path("reason").asText(), lost.toString());

            // The next renewal there gets no answer and is tried again within a quarter second: the first
            // look after the give-back comes a whole interval after the renewal that found the grant, as
            // it does whenever the scheduler fires a little late.
            hooks.beforeNext(
                    "renew_socket_locks",
                    (scriptKeys, args) -> scriptKeys.get(0).equals(keys.locks(next))
                            && args.get(0).equals(socketId),
                    () -> Uni.createFrom().failure(new IllegalStateException("no answer in time")));
            await("nothing was brought back")
                    .during(INTERVAL.multipliedBy(3))
                    .atMost(INTERVAL.multipliedBy(3).plus(WAIT))
                    .untilAsserted(() -> assertEquals(List.of(), warnings.about(next)));
        }
    }

    /** The store that went back in time brings back a grant whose end the client was told: that is said. */
    @Test
    void aGrantTheStoreBroughtBackAfterItsEndWasToldIsSaid() {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        try (Holding mine = Holding.connect(base, sara);
                Warnings warnings = Warnings.capture()) {
            mine.variables(c);
            // Keeps the socket listed there after the unlock, so that its renewals look there.
            mine.page(item, "filters");
            HashSnapshot before = HashSnapshot.of(data, keys.locks(c));
            JsonNode unlocked = mine.socket().request("unlock-variables", Map.of("configuratorId", c));
            assertEquals("lock-released", unlocked.path("event").asText(), unlocked.toString());

            before.putBack();

            String said = await("the stray is said")
                    .atMost(INTERVAL.multipliedBy(4).plus(WAIT))
                    .until(() -> warnings.about(c), found -> !found.isEmpty())
                    .get(0);
            assertTrue(said.contains("[var]"), said);
        }
    }

    private static boolean aboutConfigurator(JsonNode frame, String event, long c) {
        JsonNode resource = frame.path("data").path("resource");
        return frame.path("event").asText().equals(event)
                && resource.path("type").asText().equals("configurator")
                && resource.path("configuratorId").asLong() == c;
    }

    /** The warnings LostGrants logs while this is open, that a socket keeps grants its client was told ended. */
    private static final class Warnings extends Handler implements AutoCloseable {

        private final Logger logger = Logger.getLogger("io.editlock.lock.redis.LostGrants");
        private final Queue<String> lines = new ConcurrentLinkedQueue<>();

        static Warnings capture() {
            Warnings warnings = new Warnings();
            warnings.logger.addHandler(warnings);
            return warnings;
        }

        @Override
        public void publish(LogRecord line) {
            if (line.getLevel().intValue() >= Level.WARNING.intValue()) {
                Object[] parameters = line.getParameters();
                lines.add(parameters == null ? line.getMessage() : String.format(line.getMessage(), parameters));
            }
        }

        List<String> about(long configuratorId) {
            return lines.stream()
                    .filter(line -> line.contains("in configurator " + configuratorId + " that its client was told"))
                    .toList();
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }
}
