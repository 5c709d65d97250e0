package io.editlock.catalog;

import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Earlier versions listed the configurators in a set, which every page of {@code GET
 * /api/configurators} read whole. The listing now reads a sorted set by id ({@link
 * LockKeys#configuratorIndex()}); a node that starts moves what is left in the set into it, in
 * batches, each id added to the sorted set before it leaves the set (every node does it; twice is
 * harmless). A configurator that a node of an earlier version still running creates meanwhile is in
 * the set only, and is moved when the next node starts (docs/operations.md, "Upgrading").
 */
@ApplicationScoped
public class FormerConfiguratorList {

    private static final Logger LOG = Logger.getLogger(FormerConfiguratorList.class);
    private static final int BATCH = 1000;

    private final PipelinedRedis redis;
    private final LockKeys keys;

    public FormerConfiguratorList(PipelinedRedis redis, LockKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    void atStart(@Observes StartupEvent started) {
        // Redis may not answer yet when the node starts (it starts beside it, or is failing over).
        move().onFailure()
                .retry()
                .withBackOff(Duration.ofSeconds(1), Duration.ofSeconds(30))
                .expireIn(Duration.ofMinutes(10).toMillis())
                .subscribe()
                .with(
                        moved -> {
                            if (moved > 0) {
                                LOG.infof("moved %d configurator ids into the listing's sorted set", moved);
                            }
                        },
                        failure -> LOG.warnf(
                                "configurator ids of an earlier version not moved into the listing (%s);"
                                        + " the next node start tries again",
                                failure.getMessage()));
    }

    /** @return how many ids it moved */
    public Uni<Long> move() {
        return DrainingScan.drain(redis, Command.SSCAN, keys.formerConfiguratorIndex(), BATCH, this::moveBatch);
    }

    /** Each id into the sorted set before it leaves the set. */
    private Uni<Integer> moveBatch(List<String> ids) {
        List<String> scored = new ArrayList<>(List.of(keys.configuratorIndex()));
        ids.forEach(id -> {
            scored.add(id);
            scored.add(id);
        });
        List<String> former = new ArrayList<>(List.of(keys.formerConfiguratorIndex()));
        former.addAll(ids);
        return execute(Command.ZADD, scored.toArray(String[]::new))
                .chain(() -> execute(Command.SREM, former.toArray(String[]::new)))
                .replaceWith(ids.size());
    }

    private Uni<Response> execute(Command command, String... args) {
        return redis.execute(command, args).onFailure().transform(LockStoreUnavailableException::of);
    }
}
