package io.editlock.waiting;

import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.StoreDataWatch;
import io.editlock.session.SessionRegistry;
import io.editlock.session.WatchedAfterLoss;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The schedule of take-over deadlines ({@code takeover-deadlines}) is one key. On a Redis Cluster it lives
 * on one shard, which can lose its data while the shards that hold the requests keep theirs: a request
 * would then never reach its deadline, its asker never hear an outcome, and everyone else be told
 * {@code BUSY} while the holder keeps the page (docs/protocol.md §13). So a node that finds the store's
 * data lost puts the deadline of every take-over request still standing in a configurator watched on it
 * back on the schedule (its holder and asker watch it); the sweep then ends each at its deadline, as
 * before.
 */
@ApplicationScoped
public class TakeoverDeadlinesAfterLoss {

    private static final Logger LOG = Logger.getLogger(TakeoverDeadlinesAfterLoss.class);
    /** The asker part of a schedule entry put back (see {@link TakeoverSweeper#member}): not one ask's own. */
    private static final String PUT_BACK = "after-loss";

    private final SessionRegistry registry;
    private final WaitingScripts scripts;
    private final PipelinedRedis redis;
    private final LockKeys keys;

    public TakeoverDeadlinesAfterLoss(
            SessionRegistry registry, WaitingScripts scripts, PipelinedRedis redis, LockKeys keys) {
        this.registry = registry;
        this.scripts = scripts;
        this.redis = redis;
        this.keys = keys;
    }

    void storeDataLost(@Observes StoreDataWatch.StoreDataLost lost) {
        WatchedAfterLoss.forEach(registry, this::putBack)
                .subscribe()
                .with(
                        done -> {
                            if (done.total() > 0) {
                                LOG.infof(
                                        "after the loss of store data: the deadlines of %d take-over request(s) are"
                                                + " scheduled again",
                                        done.total());
                            }
                        },
                        failure -> LOG.warnf(
                                "after the loss of store data, the deadlines of some take-over requests were not"
                                        + " scheduled again (they end when their holder answers or lets go): %s",
                                failure.getMessage()));
    }

    /** @return how many deadlines it put back */
    private Uni<Integer> putBack(long configuratorId) {
        return scripts.readTakeovers(configuratorId, List.of())
                .flatMap(facts -> Multi.createFrom()
                        .iterable(facts.pending())
                        .onItem()
                        .transformToUniAndMerge(pending -> redis.execute(
                                Command.ZADD,
                                keys.takeoverDeadlines(),
                                String.valueOf(pending.deadline()),
                                TakeoverSweeper.member(configuratorId, pending.field(), pending.deadline(), PUT_BACK)))
                        .collect()
                        .asList()
                        .map(List::size));
    }
}
