package io.editlock.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.redis.LockScripts;
import io.editlock.redis.LockKeys;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §6: a lock lives while its socket does. Its node renews it through the socket's
 * index of configurators, which the store can lose a write of (its data, or a fail-over to a replica
 * that had not caught up) while the node still remembers having written it. A lock the socket then
 * gets again in that configurator must still be renewed, and released when the socket closes.
 */
@QuarkusTest
@TestProfile(LostIndexEntryTest.ShortLeases.class)
class LostIndexEntryTest {

    static final Duration LEASE = Duration.ofSeconds(3);
    static final Duration WAIT = Duration.ofSeconds(15);

    public static class ShortLeases implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "editlock.lease.ttl", LEASE.toMillis() + "ms",
                    "editlock.lease.renew-interval", "1s",
                    "editlock.lease.reaper-interval", "1s");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockScripts scripts;

    @Inject
    LockKeys keys;

    @Inject
    ReactiveRedisDataSource redis;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void aLockInAConfiguratorTheStoreForgotTheSocketWasListedUnderIsRenewedAndReleased() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        long other = Fixtures.configurator(store);
        WsClient tom = sockets.connect(base, DemoLogin.user("Tom"));
        Map<String, Object> page = Map.of("itemId", item, "page", "filters");
        // Listed under another configurator too: the index itself stays in the store.
        Map<String, Object> elsewhere = Map.of("itemId", Fixtures.item(store, other), "page", "filters");
        assertEquals(
                "lock-acquired",
                tom.request("lock-item-subresource", elsewhere).path("event").asText());
        assertEquals(
                "lock-acquired",
                tom.request("lock-item-subresource", page).path("event").asText());
        // The store loses the write that listed Tom's socket under c; the node still remembers it.
        String index = keys.socketConfigurators(tom.socketId());
        assertEquals(
                1L,
                redis.execute(Command.SREM, index, String.valueOf(c))
                        .await()
                        .atMost(WAIT)
                        .toLong());
        assertEquals(
                "lock-released",
                tom.request("unlock-item-subresource", page).path("event").asText());
        WsClient omar = sockets.connect(base, DemoLogin.user("Omar"));
        assertEquals(
                "lock-updated",
                omar.request("watch", Map.of("configuratorId", c)).path("event").asText());

        assertEquals(
                "lock-acquired",
                tom.request("lock-item-subresource", page).path("event").asText());

        await("Tom's lock lives through three leases: it is renewed")
                .during(LEASE.multipliedBy(3))
                .atMost(LEASE.multipliedBy(4))
                .until(() -> locks(c).size() == 1);
        assertTrue(members(index).contains(String.valueOf(c)), "the socket is listed under c again");

        tom.closeCleanly();
        JsonNode released = omar.awaitEvent("lock-released");
        assertEquals(
                "disconnect",
                released.path("data").path("reason").asText(),
                "a clean close releases Tom's lock, not its lease running out: " + released);
    }

    private List<Lock> locks(long c) {
        return scripts.list(c).await().atMost(WAIT);
    }

    private List<String> members(String index) {
        Response reply = redis.execute(Command.SMEMBERS, index).await().atMost(WAIT);
        List<String> members = new ArrayList<>();
        reply.forEach(member -> members.add(member.toString()));
        return members;
    }
}
