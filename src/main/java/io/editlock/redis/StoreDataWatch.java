package io.editlock.redis;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Notices that Redis lost its data while this node's connections stayed up ({@code FLUSHALL}, a
 * fail-over to a replica that had not caught up): no release of the locks that went is ever
 * announced, so their holders would go on editing and watchers keep showing them. A restart that cuts
 * the connections is noticed by the subscriptions; this is for what they cannot hear. A mark key
 * lives in Redis for as long as its data does (on a Redis Cluster, one on every shard, for a shard can
 * lose its data alone: {@link StoreMarks}); a node that finds one gone or replaced fires
 * {@link StoreDataLost}, and the event relays tell what was missed as after a cut subscription.
 */
@ApplicationScoped
public class StoreDataWatch {

    private static final Logger LOG = Logger.getLogger(StoreDataWatch.class);

    private final PipelinedRedis redis;
    private final StoreMarks marks;
    private final Event<StoreDataLost> lost;
    /** Each mark as this node last saw it, by its key; empty before the first look. */
    private volatile Map<String, String> seen = Map.of();

    public StoreDataWatch(PipelinedRedis redis, StoreMarks marks, Event<StoreDataLost> lost) {
        this.redis = redis;
        this.marks = marks;
        this.lost = lost;
    }

    /** Fired when the store's data is not the data this node saw before. */
    public record StoreDataLost() {}

    @Scheduled(
            every = "${editlock.lease.renew-interval:10s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> look() {
        return check().onFailure()
                .invoke(failure -> LOG.debugf("store mark not read: %s", failure.getMessage()))
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    /** @return whether the data changed since the last look (the event was fired) */
    public Uni<Boolean> check() {
        return marks.keys()
                .flatMap(keys -> Uni.join()
                        .all(keys.stream().map(this::read).toList())
                        .andFailFast()
                        .map(values -> {
                            Map<String, String> now = new HashMap<>();
                            for (int i = 0; i < keys.size(); i++) {
                                now.put(keys.get(i), values.get(i));
                            }
                            return now;
                        }))
                .map(now -> {
                    Map<String, String> last = seen;
                    seen = now;
                    // A mark this node has not seen before (a new shard, the first look) is no loss.
                    boolean changed = now.entrySet().stream()
                            .anyMatch(mark -> last.containsKey(mark.getKey())
                                    && !last.get(mark.getKey()).equals(mark.getValue()));
                    if (changed) {
                        LOG.warn("the lock store's data is not the data this node saw before (flushed, or a"
                                + " fail-over lost it): telling holders and watchers what they missed");
                        lost.fire(new StoreDataLost());
                    }
                    return changed;
                });
    }

    private Uni<String> read(String key) {
        return redis.execute(Command.GET, key)
                .flatMap(mark -> mark != null ? Uni.createFrom().item(mark.toString()) : putMark(key));
    }

    /** A store without a mark gets this node's, unless another node's came first (SET NX, then GET: Redis 6.2). */
    private Uni<String> putMark(String key) {
        return redis.execute(Command.SET, key, UUID.randomUUID().toString(), "NX")
                .chain(() -> redis.execute(Command.GET, key))
                .map(mark -> mark == null ? "" : mark.toString());
    }
}
