package io.editlock.waiting;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.redis.SocketLocks;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.NoRenewalNoReaper;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * docs/protocol.md §13, §14: a lease that ran out is gone for every decision, also in the moment
 * between its end and the reaper's look. Here nothing renews a lease (2 s) and the reaper never
 * comes, so that moment lasts: whatever finds the lease expired first must do what the reaper would
 * have done — give the freed lock to whom waits or asked for it — or do nothing with it.
 */
@QuarkusTest
@TestProfile(NoRenewalNoReaper.class)
class LeaseRanOutBeforeTheReaperTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    SocketLocks socketLocks;

    /** A REST write of Ravi's, with the configurator and the item Hana waits for a page of. */
    enum Write {
        RENAME_ITEM(200) {
            @Override
            Response send(TestUser ravi, long configurator, long item) {
                return as(ravi).body(Map.of("name", "renamed")).patch("/api/items/" + item);
            }
        },
        DELETE_ANOTHER_ITEM(204) {
            @Override
            Response send(TestUser ravi, long configurator, long item) {
                return as(ravi).delete("/api/items/" + Api.item(ravi, configurator, null));
            }
        },
        /** Refused after its guard released the expired lease: a Lock-Token Ravi was never granted. */
        REFUSED_DELETE(412) {
            @Override
            Response send(TestUser ravi, long configurator, long item) {
                return as(ravi).header("Lock-Token", "1").delete("/api/items/" + Api.item(ravi, configurator, null));
            }
        };

        final int status;

        Write(int status) {
            this.status = status;
        }

        abstract Response send(TestUser ravi, long configurator, long item);
    }

    /**
     * §14: the head of a line gets the lock in the step that frees it. A REST write that finds the lease
     * expired must not free it on the side, or the writer's next lock request takes what Hana waits for.
     */
    @ParameterizedTest
    @EnumSource(Write.class)
    void aWriteAfterALeaseRanOutLeavesTheFreedLockToTheLine(Write write) {
        TestUser ravi = DemoLogin.user("Ravi");
        long c = Api.configurator(ravi);
        long item = Api.item(ravi, c, null);
        try (WsClient anna = connect(DemoLogin.user("Anna"));
                WsClient hana = connect(DemoLogin.user("Hana"));
                WsClient raviSocket = connect(ravi)) {
            JsonNode held = anna.request("lock-configurator", Map.of("configuratorId", c));
            assertEquals("lock-acquired", held.path("event").asText());
            JsonNode queued = hana.request("wait-for", Map.of("resource", filters(item)));
            assertEquals("queued", queued.path("event").asText(), queued.toString());
            awaitEnd(held);

            write.send(ravi, c, item).then().statusCode(write.status);
            JsonNode raviAsks = raviSocket.request("lock-configurator", Map.of("configuratorId", c));

            assertEquals("lock-failed", raviAsks.path("event").asText(), "Ravi slipped in ahead of the line");
            assertEquals("LOCKED", raviAsks.path("data").path("code").asText());
            JsonNode granted = hana.awaitEvent("lock-acquired");
            assertTrue(granted.path("data").path("queued").asBoolean(), granted.toString());
        }
    }

    /**
     * §13: a holder whose lease ran out holds nothing to refuse. Ben asked first, so the freed page is
     * his, as it would have been had the reaper come before Anna's answer.
     */
    @Test
    void aRefusalAfterTheLeaseRanOutDoesNotKeepTheAskerOut() {
        TestUser anna = DemoLogin.user("Anna");
        long c = Api.configurator(anna);
        long item = Api.item(anna, c, null);
        try (WsClient annaSocket = connect(anna);
                WsClient ben = connect(DemoLogin.user("Ben"))) {
            JsonNode held = annaSocket.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
            assertEquals("lock-acquired", held.path("event").asText());
            JsonNode pending = ben.request("request-takeover", Map.of("resource", filters(item)));
            assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
            annaSocket.awaitEvent("takeover-requested");
            awaitEnd(held);

            JsonNode answer = annaSocket.request("answer-takeover", Map.of("resource", filters(item), "accept", false));

            assertEquals("NOT_FOUND", answer.path("data").path("code").asText(), answer.toString());
            JsonNode granted = ben.awaitEvent("takeover-granted");
            assertEquals(
                    item,
                    granted.path("data")
                            .path("lock")
                            .path("resource")
                            .path("itemId")
                            .asLong());
            assertTrue(ben.events("takeover-refused").isEmpty(), "Ben was told a refusal");
        }
    }

    /**
     * §6: a renewal renews leases that still run. One that ran out is gone: the holder's node, late to
     * renew, must not bring it back, for in the meantime another user may have been told the page is
     * free, or a write may have found it so.
     */
    @Test
    void aRenewalAfterTheLeaseRanOutDoesNotBringItBack() {
        TestUser anna = DemoLogin.user("Anna");
        long c = Api.configurator(anna);
        long item = Api.item(anna, c, null);
        try (WsClient annaSocket = connect(anna);
                WsClient ben = connect(DemoLogin.user("Ben"))) {
            JsonNode held = annaSocket.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
            assertEquals("lock-acquired", held.path("event").asText());
            awaitEnd(held);

            assertEquals(
                    0,
                    socketLocks.renewDropped(annaSocket.socketId()).await().atMost(Duration.ofSeconds(10)),
                    "leases renewed");

            JsonNode granted = ben.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
            assertEquals("lock-acquired", granted.path("event").asText(), granted.toString());
        }
    }

    private WsClient connect(TestUser user) {
        WsClient client = WsClient.connect(base, user.token());
        client.welcome();
        return client;
    }

    private static Map<String, Object> filters(long item) {
        return Map.of("type", "item-subresource", "itemId", item, "page", "filters");
    }

    /** Until the lease of the lock in this lock-acquired has ended (the server's clock is this machine's). */
    private static void awaitEnd(JsonNode acquired) {
        Instant end = Instant.parse(
                acquired.path("data").path("lock").path("expiresAt").asText());
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> Instant.now().isAfter(end.plusMillis(100)));
    }
}
