package io.editlock.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import io.editlock.support.WsClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A node stopped (SIGTERM) while Redis holds its connections without answering (frozen) must exit
 * within the bound docs/operations.md promises, well before its orchestrator kills it
 * (docker-compose.yml gives 20 s): a frozen store gets one store timeout, not one per step of the
 * stop, as each step would only fail the same way. What the node kept then ends with its leases.
 */
class NodeStopFrozenRedisIT {

    /** The shutdown after the hand-over: "about 2 s" in the docs, with room for a loaded machine. */
    private static final Duration SHUTDOWN = Duration.ofSeconds(3);

    /**
     * Frozen before the stop, the store does not take the sockets' drops: the node exits within the
     * Redis timeout (5 s as shipped) plus the shutdown. Production settings.
     */
    @Test
    void aNodeStoppedWhileRedisIsFrozenExitsWithinTheRedisTimeout() throws Exception {
        Duration redisTimeout = Duration.ofSeconds(5); // application.properties
        try (RedisProcess redis = TestRedis.start()) {
            TestTokens tokens = TestTokens.generate();
            try (ServerNode node = ServerNode.start("node-frozen-redis-stop", settings(redis, tokens, Map.of()))
                    .errorsExpected()) {
                try (WsClient sara = holding(node, tokens)) {
                    TestRedis.signal(redis, "STOP");
                    try {
                        long stopped = System.nanoTime();
                        node.stop(); // SIGTERM

                        assertEquals(1001, sara.awaitClosedByServer(), "the socket ends as a drop");
                        assertExitsWithin(node, stopped, redisTimeout.plus(SHUTDOWN));
                    } finally {
                        TestRedis.signal(redis, "CONT");
                    }
                }
            }
        }
    }

    /**
     * Frozen while the node waits for its users to resume elsewhere: the resume check under way, and
     * every release after it, cannot be answered. The node gives the store one timeout and exits, at
     * the latest the stop-wait plus the Redis timeout plus the shutdown after the SIGTERM. Short
     * settings keep the test quick; a node that waited out each step's own timeout would take about
     * four Redis timeouts after the freeze.
     */
    @Test
    void aNodeWhoseRedisFreezesWhileItWaitsForResumesExitsWithinTheStopWaitAndOneRedisTimeout() throws Exception {
        Duration redisTimeout = Duration.ofSeconds(2);
        Duration stopWait = Duration.ofSeconds(4);
        try (RedisProcess redis = TestRedis.start()) {
            TestTokens tokens = TestTokens.generate();
            Map<String, String> settings = settings(
                    redis,
                    tokens,
                    Map.of(
                            "quarkus.redis.timeout",
                            redisTimeout.toMillis() + "ms",
                            "editlock.session.stop-wait",
                            stopWait.toMillis() + "ms"));
            try (ServerNode node =
                    ServerNode.start("node-redis-freezes-in-stop", settings).errorsExpected()) {
                try (WsClient sara = holding(node, tokens)) {
                    long stopped = System.nanoTime();
                    node.stop(); // SIGTERM

                    assertEquals(1001, sara.awaitClosedByServer(), "the socket ends as a drop");
                    // Sara does not resume: the node still waits for her when Redis freezes.
                    Thread.sleep(Math.max(
                            0, Duration.ofMillis(2500).minus(since(stopped)).toMillis()));
                    assertTrue(since(stopped).compareTo(stopWait) < 0, "Redis freezes within the stop-wait");
                    TestRedis.signal(redis, "STOP");
                    try {
                        assertExitsWithin(
                                node, stopped, stopWait.plus(redisTimeout).plus(SHUTDOWN));
                    } finally {
                        TestRedis.signal(redis, "CONT");
                    }
                }
            }
        }
    }

    private static WsClient holding(ServerNode node, TestTokens tokens) {
        long configurator = node.createConfigurator(tokens.token("setup", "Setup"), "frozen");
        WsClient sara = WsClient.connect(node.baseUri(), tokens.token("sara", "Sara"));
        assertEquals(
                "lock-acquired",
                sara.request("lock-configurator", Map.of("configuratorId", configurator))
                        .path("event")
                        .asText());
        return sara;
    }

    private static Map<String, String> settings(RedisProcess redis, TestTokens tokens, Map<String, String> more) {
        Map<String, String> settings = new HashMap<>(more);
        settings.put("quarkus.redis.hosts", redis.url());
        settings.put("mp.jwt.verify.publickey.location", tokens.publicKeyFile().toString());
        return settings;
    }

    private static void assertExitsWithin(ServerNode node, long stopped, Duration bound) {
        int exit;
        try {
            Duration left = bound.minus(since(stopped));
            exit = node.awaitExit(left.isNegative() ? Duration.ofMillis(1) : left);
        } catch (ConditionTimeoutException stillRunning) {
            throw new AssertionError("the node still runs " + since(stopped).toMillis() + " ms after SIGTERM, past "
                    + bound.toMillis() + " ms (see " + node.log() + ")");
        }
        System.out.printf(
                "node exited %d ms after SIGTERM (bound %d ms)%n",
                since(stopped).toMillis(), bound.toMillis());
        assertEquals(143, exit, "the node exits by itself");
    }

    private static Duration since(long nanoTime) {
        return Duration.ofNanos(System.nanoTime() - nanoTime);
    }
}
