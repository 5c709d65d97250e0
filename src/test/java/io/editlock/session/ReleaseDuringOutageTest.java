package io.editlock.session;

import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.redis.LockScripts;
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
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §5, §14: a socket its client closes (1000) releases what it kept at once, and leaves
 * its lines. When the store is out of reach at that moment, the release is not left to the leases (half a
 * minute, and a line could hand the page to the socket that left meanwhile): it is carried out as soon as
 * the store answers again. Here Redis stops for longer than the store timeout (1 s in this profile) right
 * as the release goes out.
 */
@QuarkusTest
@TestProfile(FrozenRedis.class)
class ReleaseDuringOutageTest {

    /** Longer than the store timeout: the release's one run gives up. */
    private static final Duration OUTAGE = Duration.ofMillis(2_500);
    /** Well within the lease (30 s), at whose end the lock would go anyway. */
    private static final Duration SOON = Duration.ofSeconds(5);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockScripts scripts;

    @Inject
    PipelinedRedis redis;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        FrozenRedis.thaw();
        sockets.close();
    }

    @Test
    void aPageClosedDuringAnOutageIsReleasedAsADisconnectOnceTheStoreIsBack() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = sockets.connect(base, DemoLogin.user("Sara"));
        WsClient tom = sockets.connect(base, DemoLogin.user("Tom"));
        tom.request("watch", Map.of("configuratorId", c));
        assertEquals(
                "lock-acquired",
                sara.request("lock-item-subresource", page(item)).path("event").asText());

        AtomicBoolean frozen = freezeAtTheNextRelease();
        sara.closeCleanly();
        FrozenRedis.outage(frozen, OUTAGE);

        JsonNode released = tom.awaitEvent(frame -> frame.path("event").asText().equals("lock-released"), SOON);
        assertEquals("disconnect", released.path("data").path("reason").asText(), released.toString());
        assertTrue(scripts.list(c).await().atMost(SOON).isEmpty(), "nothing is held any more");
    }

    @Test
    void aWaiterWhoLeftDuringAnOutageLeavesTheLineOnceTheStoreIsBack() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = sockets.connect(base, DemoLogin.user("Sara"));
        WsClient tom = sockets.connect(base, DemoLogin.user("Tom"));
        WsClient omar = sockets.connect(base, DemoLogin.user("Omar"));
        sara.request("lock-item-subresource", page(item));
        assertEquals(
                "queued", tom.request("wait-for", about(item)).path("event").asText());
        assertEquals(
                2,
                omar.request("wait-for", about(item))
                        .path("data")
                        .path("position")
                        .asInt());

        AtomicBoolean frozen = freezeAtTheNextRelease();
        tom.closeCleanly();
        FrozenRedis.outage(frozen, OUTAGE);

        assertEquals(
                1,
                omar.awaitEvent(frame -> frame.path("event").asText().equals("queue-updated"), SOON)
                        .path("data")
                        .path("position")
                        .asInt(),
                "Omar moves up once Tom's close is carried out");
        sara.request("unlock-item-subresource", page(item));
        JsonNode granted = omar.awaitEvent(frame -> frame.path("event").asText().equals("lock-acquired"), SOON);
        assertEquals(
                item,
                granted.path("data")
                        .path("lock")
                        .path("resource")
                        .path("itemId")
                        .asLong(),
                granted.toString());
        assertEquals("Omar", scripts.list(c).await().atMost(SOON).get(0).ownerUserName());
    }

    /** Redis stops right as the next release of a socket goes out. */
    private AtomicBoolean freezeAtTheNextRelease() {
        return FrozenRedis.freezeAtNext(ScriptHooks.install(redis), "release_socket_locks", () -> {});
    }
}
