package io.editlock.waiting;

import static io.editlock.support.Sockets.filters;
import static io.editlock.support.Sockets.page;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.Lock;
import io.editlock.lock.redis.LockScripts;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.FrozenRedis;
import io.editlock.support.ScriptHooks;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §13: when the asker's last socket goes away, the request ends without a word to the
 * holder, who keeps the page. The asker closes while the store is out of reach, and the consent window ends
 * meanwhile: once the store is back, the node carries the close out within a second, and the deadline, due
 * since, is decided only a few seconds after the outage, so it finds the request gone. Here the close's
 * second try is held back a further two seconds, longer than any sweep takes to find the deadline due.
 */
@QuarkusTest
@TestProfile(TakeoverAfterOutageTest.ShortConsentFrozenRedis.class)
class TakeoverAfterOutageTest {

    public static class ShortConsentFrozenRedis extends FrozenRedis {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("editlock.waiting.consent-window", CONSENT.toSeconds() + "s");
            overrides.put("editlock.waiting.sweep-interval", "500ms");
            return overrides;
        }
    }

    private static final Duration CONSENT = Duration.ofSeconds(2);
    /** Longer than the store timeout (1 s here) and than the consent window: the deadline passes meanwhile. */
    private static final Duration OUTAGE = Duration.ofMillis(3_000);

    private static final Duration SLOW_RETRY = Duration.ofSeconds(2);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockScripts scripts;

    @Inject
    PipelinedRedis redis;

    @Inject
    LockKeys keys;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        FrozenRedis.thaw();
        sockets.close();
    }

    @Test
    void anAskerWhoLeftDuringAnOutageTakesNothingFromTheHolder() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = sockets.connect(base, DemoLogin.user("Sara"));
        WsClient tom = sockets.connect(base, DemoLogin.user("Tom"));
        assertEquals(
                "lock-acquired",
                sara.request("lock-item-subresource", page(item)).path("event").asText());
        JsonNode pending = tom.request("request-takeover", Map.of("resource", filters(item)));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
        sara.awaitEvent("takeover-requested");

        ScriptHooks hooks = ScriptHooks.install(redis);
        // The close's second try, once the store is back, goes out only after the sweeps found the deadline.
        AtomicBoolean frozen = FrozenRedis.freezeAtNext(
                hooks,
                "release_socket_locks",
                () -> hooks.beforeNextBlocking("release_socket_locks", () -> pause(SLOW_RETRY)));
        tom.closeCleanly();
        FrozenRedis.outage(frozen, OUTAGE);

        WsClient.stays(
                () -> sara.events("lock-lost").isEmpty(),
                SLOW_RETRY.plus(Duration.ofSeconds(4)),
                "Sara keeps her page: " + sara.received());
        List<Lock> held = scripts.list(c).await().atMost(Duration.ofSeconds(5));
        assertEquals(1, held.size(), held.toString());
        assertEquals("Sara", held.get(0).ownerUserName());
        List<String> waiting = keys.waiting(c);
        assertEquals(
                0,
                redis.execute(Command.EXISTS, waiting.get(3))
                        .await()
                        .atMost(Duration.ofSeconds(5))
                        .toInteger(),
                "no take-over request is left");
    }

    private static void pause(Duration length) {
        try {
            Thread.sleep(length.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
