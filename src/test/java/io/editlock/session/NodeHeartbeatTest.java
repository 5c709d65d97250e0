package io.editlock.session;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.CommandCounter;
import io.editlock.redis.LockKeys;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * When this node may take another node's missing heartbeat for its death (docs/protocol.md §5): only
 * after its own beats have gone through for a whole TTL, counted again from the first beat after the
 * store lost the keys. No scheduler runs: the test beats.
 */
@QuarkusTest
@TestProfile(CommandCounter.NoBackgroundWork.class)
class NodeHeartbeatTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration BEAT = Duration.ofMillis(500);

    @Inject
    NodeHeartbeat heartbeat;

    @Inject
    NodeIdentity node;

    @Inject
    LockKeys keys;

    @Inject
    ReactiveRedisDataSource redis;

    /**
     * A store that restarts between two beats loses every node's key, with no failure this node could
     * see: the other nodes' keys are missing until their next beats, and they live.
     */
    @Test
    void aStoreThatLostTheKeysBetweenTwoBeatsIsNotTakenForDeadNodes() {
        steadyHeartbeat();

        redis.key().del(keys.nodeAlive(node.id())).await().atMost(WAIT);
        heartbeat.beat();

        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> !heartbeat.othersCanBeJudged());
        assertTrue(redis.key().exists(keys.nodeAlive(node.id())).await().atMost(WAIT), "the beat set the key again");
        steadyHeartbeat();
    }

    private void steadyHeartbeat() {
        await().atMost(WAIT).pollInterval(BEAT).until(() -> {
            heartbeat.beat();
            return heartbeat.othersCanBeJudged();
        });
    }
}
