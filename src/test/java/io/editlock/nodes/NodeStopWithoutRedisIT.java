package io.editlock.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.RedisIndependent;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import io.editlock.support.WsClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A deploy during a Redis outage (docs/protocol.md §5): a node stopped while Redis is gone or frozen
 * can neither note its users' drops nor release what they held, and nobody can resume anywhere. It
 * must still end its sockets as drops (1001, so their clients reconnect elsewhere) and exit by itself
 * before its orchestrator would kill it (docker-compose.yml gives 20 s), with its production settings:
 * what it kept then ends with the leases. (On a quiet machine it exits within about 0.2 s with Redis
 * gone and 5 s with Redis frozen; the bound leaves room for a loaded one.)
 */
@RedisIndependent
class NodeStopWithoutRedisIT {

    /** docker-compose.yml's {@code stop_grace_period}: after it, the node would be killed. */
    private static final Duration ORCHESTRATOR_PATIENCE = Duration.ofSeconds(20);

    enum Outage {
        /** The process is gone: every command fails at once (connection refused). */
        GONE,
        /** The process is stopped (SIGSTOP): connections stay open, nothing answers. */
        FROZEN
    }

    @ParameterizedTest
    @EnumSource(Outage.class)
    void aNodeStoppedDuringARedisOutageEndsItsSocketsAndExits(Outage outage) throws Exception {
        try (RedisProcess redis = TestRedis.start()) {
            TestTokens tokens = TestTokens.generate();
            Map<String, String> settings = Map.of(
                    "quarkus.redis.hosts",
                    redis.url(),
                    "mp.jwt.verify.publickey.location",
                    tokens.publicKeyFile().toString());
            try (ServerNode node =
                    ServerNode.start("node-outage-stop", settings).errorsExpected()) {
                long configurator = node.createConfigurator(tokens.token("setup", "Setup"), "outage");
                try (WsClient sara = WsClient.connect(node.baseUri(), tokens.token("sara", "Sara"))) {
                    assertEquals(
                            "lock-acquired",
                            sara.request("lock-configurator", Map.of("configuratorId", configurator))
                                    .path("event")
                                    .asText());
                    switch (outage) {
                        case GONE -> redis.kill();
                        case FROZEN -> TestRedis.signal(redis, "STOP");
                    }
                    try {
                        long stopped = System.nanoTime();
                        node.stop(); // SIGTERM

                        assertEquals(1001, sara.awaitClosedByServer(), "the socket ends as a drop");
                        assertEquals(143, node.awaitExit(ORCHESTRATOR_PATIENCE), "the node exits by itself");
                        Duration took = Duration.ofNanos(System.nanoTime() - stopped);
                        System.out.printf("node stop with Redis %s took %d ms%n", outage, took.toMillis());
                    } finally {
                        if (outage == Outage.FROZEN) {
                            TestRedis.signal(redis, "CONT");
                        }
                    }
                }
            }
        }
    }
}
