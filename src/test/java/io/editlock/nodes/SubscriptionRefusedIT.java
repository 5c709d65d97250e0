package io.editlock.nodes;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.RedisAdmin;
import io.editlock.support.ServerNode;
import io.editlock.support.ShippedRedisAcl;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * An operator whose Redis ACL forgets editlock's channels (docs/operations.md, Redis ACL): Redis
 * refuses the node's subscriptions ({@code NOPERM}), so the node would hear no lock events and show
 * its users stale pages. It must say so on readiness, naming what it does not hear, so that no load
 * balancer sends it users; and once the ACL is mended it must hear again by itself, without a restart,
 * and without leaving a connection open for every refused attempt meanwhile.
 */
class SubscriptionRefusedIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aNodeWhoseSubscriptionsRedisRefusesIsNotReadyUntilTheAclIsMended() throws Exception {
        ShippedRedisAcl acl = ShippedRedisAcl.withAdminDefaultUser();
        try (RedisProcess redis =
                new RedisProcess(TestRedis.binary(), RedisProcess.freePort(), acl.serverArguments()).start()) {
            assertEquals("+OK", RedisAdmin.command(redis, "ACL", "SETUSER", "editlock", "resetchannels"));
            TestTokens tokens = TestTokens.generate();
            try (ServerNode node = ServerNode.launch(
                    "node-channels-refused",
                    Map.of(
                            "quarkus.redis.hosts",
                            acl.url(redis.port()),
                            "mp.jwt.verify.publickey.location",
                            tokens.publicKeyFile().toString()))) {
                HttpResponse<String> ready = await("the node answers")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> readiness(node), response -> response != null);
                assertFalse(listens(redis), "the ACL refuses the node's subscriptions");
                assertEquals(503, ready.statusCode(), ready.body());
                assertTrue(
                        ready.body().contains("not listening") && ready.body().contains("lock events"),
                        "readiness names what the node does not hear: " + ready.body());
                assertFalse(ready.body().contains("editlock:"), "but not the channels' names: " + ready.body());

                // The node keeps trying, each attempt on a connection it closes once refused: at no time
                // more connections whose last command was SUBSCRIBE than the node has subscriptions.
                int subscriptions = subscriptions(ready.body());
                await("refused attempts leave no connections behind")
                        .during(Duration.ofSeconds(12)) // several attempts at the longest back-off
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> subscribeConnections(redis) <= subscriptions);

                assertEquals("+OK", RedisAdmin.command(redis, "ACL", "SETUSER", "editlock", "&editlock:*"));
                await("the node hears its channels again by itself")
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> listens(redis) && isReady(node));
            }
        }
    }

    private static boolean isReady(ServerNode node) {
        HttpResponse<String> ready = readiness(node);
        return ready != null && ready.statusCode() == 200;
    }

    private static HttpResponse<String> readiness(ServerNode node) {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(node.baseUri().resolve("q/health/ready"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static boolean listens(RedisProcess redis) throws IOException {
        return RedisAdmin.command(redis, "PUBSUB", "CHANNELS", "editlock:*").contains("editlock:");
    }

    /** Connections whose last command was SUBSCRIBE: the node's subscriptions, standing or refused. */
    private static long subscribeConnections(RedisProcess redis) throws IOException {
        return RedisAdmin.command(redis, "CLIENT", "LIST")
                .lines()
                .filter(line -> line.contains(" cmd=subscribe "))
                .count();
    }

    private static int subscriptions(String readiness) {
        Matcher count = Pattern.compile("\"subscriptions\"\\s*:\\s*(\\d+)").matcher(readiness);
        assertTrue(count.find(), "readiness counts the node's subscriptions: " + readiness);
        return Integer.parseInt(count.group(1));
    }
}
