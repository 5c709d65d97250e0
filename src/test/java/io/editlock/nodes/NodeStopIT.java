package io.editlock.nodes;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import io.editlock.support.WsClient;
import io.restassured.response.Response;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A node that is stopped (SIGTERM: a deploy, a scale-down) must not cost anyone their page
 * (docs/protocol.md §5): it ends its sockets as drops (1001), a client that reconnects to another node
 * resumes its locks there, what nobody resumes is released with reason {@code disconnect} when the grace
 * period ends, as for any drop, and the node exits once that is done.
 */
class NodeStopIT {

    /**
     * Also how long a stopping node stays up for sockets that do not come back: the checks of what it
     * refuses meanwhile must fit in it on a machine busy with other builds (2 s did not, once).
     */
    private static final Duration GRACE = Duration.ofSeconds(5);

    /**
     * A deploy often stops more than one node at once. Each stopping node waits only for its own
     * sockets (and takes no new ones meanwhile), the users of both resume on the node that stays, and
     * what nobody resumes is released when the grace period ends.
     */
    @Test
    void twoNodesStoppedAtOnceHandTheirUsersToTheNodeThatStays() throws Exception {
        try (RedisProcess redis = TestRedis.start()) {
            TestTokens tokens = TestTokens.generate();
            Map<String, String> settings = settings(redis, tokens);
            try (ServerNode stays = ServerNode.start("node-stays", settings);
                    ServerNode first = ServerNode.start("node-leaving-1", settings);
                    ServerNode second = ServerNode.start("node-leaving-2", settings)) {
                String setup = tokens.token("setup", "Setup");
                long saras = stays.createConfigurator(setup, "stopping");
                long lenas = stays.createConfigurator(setup, "stopping");
                long toms = stays.createConfigurator(setup, "stopping");
                String saraToken = tokens.token("sara", "Sara");
                String lenaToken = tokens.token("lena", "Lena");
                try (WsClient sara = WsClient.connect(first.baseUri(), saraToken);
                        WsClient lena = WsClient.connect(second.baseUri(), lenaToken);
                        WsClient tom = WsClient.connect(second.baseUri(), tokens.token("tom", "Tom"));
                        WsClient omar = WsClient.connect(stays.baseUri(), tokens.token("omar", "Omar"))) {
                    long saraGrant = grant(sara, saras);
                    long lenaGrant = grant(lena, lenas);
                    grant(tom, toms);
                    for (long configurator : List.of(saras, lenas, toms)) {
                        omar.request("watch", Map.of("configuratorId", configurator));
                    }

                    first.stop();
                    second.stop();

                    assertEquals(1001, sara.awaitClosedByServer(), "each stopping node ends its sockets as drops");
                    assertEquals(1001, lena.awaitClosedByServer(), "each stopping node ends its sockets as drops");
                    // While the second waits for Tom, it takes no new users: not ready.
                    assertEquals(503, readiness(second), "a stopping node is not ready");
                    // Nor does it take new sockets: refused before the upgrade, so that a proxy tries another node.
                    URI socket = URI.create(
                            WsClient.locking(second.baseUri()) + "?access_token=" + tokens.token("omar", "Omar"));
                    assertEquals(Optional.of(503), WsClient.refusal(socket, Map.of()), "a socket on a stopping node");
                    assertEquals(
                            503,
                            given().baseUri(second.baseUri().toString())
                                    .get("/socket.io/?EIO=4&transport=polling")
                                    .statusCode(),
                            "a Socket.IO session on a stopping node");
                    assertEquals(
                            503,
                            given().baseUri(second.baseUri().toString())
                                    .get("/socket.io/?EIO=4&transport=polling&sid=held-elsewhere")
                                    .statusCode(),
                            "a poll of a session another node holds, which a proxy then passes on");
                    // The JVM's exit has begun: the files of its demo UI can no longer be read. Their requests are
                    // refused as the node's going away, with a retry, not as a server fault.
                    Response page = await().atMost(Duration.ofSeconds(5))
                            .pollInterval(Duration.ofMillis(50))
                            .until(
                                    () -> given().baseUri(second.baseUri().toString())
                                            .get("/"),
                                    response -> response.statusCode() != 200);
                    assertEquals(503, page.statusCode(), page.asString());
                    assertEquals("1", page.header("Retry-After"));
                    try (WsClient saraAgain = WsClient.connect(stays.baseUri(), saraToken);
                            WsClient lenaAgain = WsClient.connect(stays.baseUri(), lenaToken)) {
                        assertEquals(List.of(saraGrant), resumedGrants(saraAgain, sara.resumeToken()), "Sara's grant");
                        assertEquals(List.of(lenaGrant), resumedGrants(lenaAgain, lena.resumeToken()), "Lena's grant");

                        // Tom does not come back: his page is freed when the grace period ends.
                        JsonNode released = omar.awaitEvent(frame -> isReleaseOf(frame, toms), GRACE.plusSeconds(5));
                        assertEquals(
                                "disconnect",
                                released.path("data").path("reason").asText());
                        assertEquals(143, first.awaitExit(Duration.ofSeconds(10)), "the first node exits");
                        assertEquals(143, second.awaitExit(Duration.ofSeconds(10)), "the second node exits");
                        assertEquals(
                                List.of(),
                                omar.frames(frame -> isReleaseOf(frame, saras) || isReleaseOf(frame, lenas)),
                                "Sara's and Lena's pages were never free");
                        assertTrue(configuratorLockedBy(saraAgain, saras, "sara"), "Sara still holds hers");
                        assertTrue(configuratorLockedBy(lenaAgain, lenas, "lena"), "Lena still holds hers");
                    }
                }
            }
        }
    }

    /**
     * §14: a waiter whose socket leaves with a stopping node is not handed the page that the holder,
     * leaving with it too, frees: the page goes to the next in line. The waiter holds a page of its own
     * as well. Four such pages, as the order in which the node would end its sockets one by one is
     * anyone's.
     */
    @Test
    void aStoppingNodeHandsNoPageToAWaiterLeavingWithIt() throws Exception {
        int pages = 4;
        try (RedisProcess redis = TestRedis.start()) {
            TestTokens tokens = TestTokens.generate();
            Map<String, String> settings = settings(redis, tokens);
            List<WsClient> clients = new ArrayList<>();
            try (ServerNode stays = ServerNode.start("node-stays", settings);
                    ServerNode leaving = ServerNode.start("node-leaving", settings)) {
                WsClient omar = connect(clients, stays, tokens, "omar");
                List<WsClient> nextInLine = new ArrayList<>();
                for (int i = 0; i < pages; i++) {
                    long page = stays.createConfigurator(tokens.token("setup", "Setup"), "line");
                    Map<String, Object> resource =
                            Map.of("resource", Map.of("type", "configurator", "configuratorId", page));
                    omar.request("watch", Map.of("configuratorId", page));
                    grant(connect(clients, leaving, tokens, "hana-" + i), page);
                    WsClient carl = connect(clients, leaving, tokens, "carl-" + i);
                    // Carl holds a page of his own too: a socket that holds and waits leaves its lines first all the
                    // same.
                    long his = stays.createConfigurator(tokens.token("setup", "Setup"), "his");
                    assertEquals(
                            "lock-acquired",
                            carl.request("lock-variables", Map.of("configuratorId", his))
                                    .path("event")
                                    .asText());
                    assertEquals(
                            1,
                            carl.request("wait-for", resource)
                                    .path("data")
                                    .path("position")
                                    .asInt());
                    WsClient dora = connect(clients, stays, tokens, "dora-" + i);
                    assertEquals(
                            2,
                            dora.request("wait-for", resource)
                                    .path("data")
                                    .path("position")
                                    .asInt());
                    nextInLine.add(dora);
                }

                leaving.stop();

                for (WsClient dora : nextInLine) {
                    JsonNode granted = dora.awaitEvent(
                            frame -> frame.path("event").asText().equals("lock-acquired"), GRACE.plusSeconds(10));
                    assertTrue(granted.path("data").path("queued").asBoolean(), "served from the line: " + granted);
                }
                assertEquals(143, leaving.awaitExit(Duration.ofSeconds(10)), "the node exits");
                assertEquals(
                        List.of(),
                        omar.frames(frame -> frame.findValuesAsText("ownerUserId").stream()
                                .anyMatch(owner -> owner.startsWith("carl-"))),
                        "no waiter leaving with the node was ever handed a page");
            } finally {
                clients.forEach(WsClient::close);
            }
        }
    }

    private static WsClient connect(List<WsClient> clients, ServerNode node, TestTokens tokens, String userId) {
        WsClient client = WsClient.connect(node.baseUri(), tokens.token(userId, userId));
        clients.add(client);
        return client;
    }

    private static long grant(WsClient client, long configuratorId) {
        JsonNode reply = client.request("lock-configurator", Map.of("configuratorId", configuratorId));
        assertEquals("lock-acquired", reply.path("event").asText(), reply.toString());
        return reply.path("data").path("lock").path("token").asLong();
    }

    private static List<Long> resumedGrants(WsClient client, String resumeToken) {
        JsonNode resumed = client.request("resume", Map.of("resumeToken", resumeToken));
        assertEquals("resumed", resumed.path("event").asText(), "resumes on the node that stays: " + resumed);
        List<Long> grants = new ArrayList<>();
        resumed.path("data")
                .path("locks")
                .forEach(lock -> grants.add(lock.path("token").asLong()));
        return grants;
    }

    private static boolean isReleaseOf(JsonNode frame, long configuratorId) {
        return frame.path("event").asText().equals("lock-released")
                && frame.path("data").path("resource").path("configuratorId").asLong() == configuratorId;
    }

    /** The default lease (30 s) outlives the grace period: a release at the grace's end is not an expiry. */
    private static Map<String, String> settings(RedisProcess redis, TestTokens tokens) {
        return Map.of(
                "quarkus.redis.hosts",
                redis.url(),
                "mp.jwt.verify.publickey.location",
                tokens.publicKeyFile().toString(),
                "editlock.session.grace-period",
                GRACE.toMillis() + "ms");
    }

    private static int readiness(ServerNode node) {
        return given().baseUri(node.baseUri().toString()).get("/q/health/ready").statusCode();
    }

    private static boolean configuratorLockedBy(WsClient client, long configuratorId, String userId) {
        JsonNode state = client.request("watch", Map.of("configuratorId", configuratorId));
        return state.path("data").path("locks").findValuesAsText("ownerUserId").contains(userId);
    }
}
