package io.editlock.ws;

import static io.editlock.support.LockFrames.assertExactlyOneReply;
import static io.editlock.support.LockFrames.assertResource;
import static io.editlock.support.LockFrames.awaitState;
import static io.editlock.support.LockFrames.event;
import static io.editlock.support.LockFrames.isEvent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.LockFrames;
import io.editlock.support.LockKind;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * docs/protocol.md §4: a granted lock request is answered with the whole lock, once, carrying its
 * ref; a re-entry from another socket of the holder is the same grant and changes nothing watchers see.
 *
 * <p>Where a test proves that something did NOT arrive, it first waits for a later frame that the
 * relay sends after it (see {@link LockFrames}), so the absence is not a matter of timing.
 */
@QuarkusTest
class LockAcquiredTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @ParameterizedTest
    @EnumSource(LockKind.class)
    void lockIsAnsweredWithTheWholeLock(LockKind kind) {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient s = WsClient.connect(base, sara.token())) {
            String ref = s.send(kind.lockEvent, kind.data(c, item));
            JsonNode reply = s.reply(ref);

            assertEquals("lock-acquired", event(reply), kind + " must be granted: " + reply);
            JsonNode lock = reply.path("data").path("lock");
            assertResource(lock.path("resource"), kind, c, item);
            assertTrue(
                    lock.path("token").isIntegralNumber() && lock.path("token").asLong() > 0,
                    "the holder's own lock-acquired must carry a positive fencing token: " + reply);
            assertEquals(sara.id(), lock.path("ownerUserId").asText(), "ownerUserId: " + reply);
            assertEquals("Sara", lock.path("ownerUserName").asText(), "ownerUserName: " + reply);
            Instant acquiredAt = Instant.parse(lock.path("acquiredAt").asText());
            Instant expiresAt = Instant.parse(lock.path("expiresAt").asText());
            assertTrue(expiresAt.isAfter(acquiredAt), "the lease must end after the grant: " + reply);
            assertTrue(
                    reply.path("data").path("released").isArray()
                            && reply.path("data").path("released").isEmpty(),
                    "nothing was taken away, so released must be []: " + reply);
            assertExactlyOneReply(s, ref);
        }
    }

    @Test
    void emptyRefIsValidAndEchoed() {
        long c = Fixtures.configurator(store);
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            s.send("lock-configurator", Map.of("configuratorId", c), "");
            JsonNode reply = s.reply("");
            assertEquals("lock-acquired", event(reply), "a ref of \"\" is a valid ref: " + reply);
            assertTrue(
                    reply.path("ref").isTextual() && reply.path("ref").asText().isEmpty(),
                    "the empty ref must be echoed: " + reply);
            assertExactlyOneReply(s, "");
        }
    }

    @Test
    void reentryFromAnotherSocketIsTheSameGrantAndBroadcastsNothing() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient tab1 = WsClient.connect(base, sara.token());
                WsClient tab2 = WsClient.connect(base, sara.token());
                WsClient w = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            w.request("watch", Map.of("configuratorId", c));
            JsonNode first = tab1.request("lock-configurator", Map.of("configuratorId", c))
                    .path("data")
                    .path("lock");
            awaitState(w, c, Set.of("configurator"));

            JsonNode again = tab2.request("lock-configurator", Map.of("configuratorId", c));
            assertEquals(
                    "lock-acquired", event(again), "re-locking your own lock from another socket succeeds: " + again);
            JsonNode second = again.path("data").path("lock");
            assertEquals(
                    first.path("token").asLong(),
                    second.path("token").asLong(),
                    "a re-entry is the same grant: same token");
            assertEquals(
                    first.path("acquiredAt").asText(),
                    second.path("acquiredAt").asText(),
                    "a re-entry keeps acquiredAt");

            // A later change: its broadcast comes after any broadcast the re-entry might have caused.
            tab1.request("lock-variables", Map.of("configuratorId", c));
            awaitState(w, c, Set.of("configurator", "variables"));
            List<JsonNode> updates = w.frames(isEvent("lock-updated").and(f -> !f.has("ref")));
            assertEquals(
                    2, updates.size(), "a re-entry changes nothing watchers see: no lock-updated for it: " + updates);
        }
    }
}
