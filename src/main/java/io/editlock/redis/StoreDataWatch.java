package io.editlock.redis;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Notices that Redis lost its data while this node's connections stayed up ({@code FLUSHALL}, a
 * fail-over to a replica that had not caught up): no release of the locks that went is ever
 * announced, so their holders would go on editing and watchers keep showing them. A restart that cuts
 * the connections is noticed by the subscriptions; this is for what they cannot hear. A mark key
 * lives in Redis for as long as its data does; a node that finds it gone or replaced fires
 * {@link StoreDataLost}, and the event relays tell what was missed as after a cut subscription.
 */
@ApplicationScoped
public class StoreDataWatch {

    private static final Logger LOG = Logger.getLogger(StoreDataWatch.class);

    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final Event<StoreDataLost> lost;
    /** The mark this node last saw; null before its first look. */
    private volatile String seen;

    public StoreDataWatch(PipelinedRedis redis, LockKeys keys, Event<StoreDataLost> lost) {
        this.redis = redis;
        this.keys = keys;
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
        return redis.execute(Command.GET, keys.storeMark())
                .flatMap(mark -> mark != null ? Uni.createFrom().item(mark.toString()) : putMark())
                .map(now -> {
                    String last = seen;
                    seen = now;
                    boolean changed = last != null && !last.equals(now);
                    if (changed) {
                        LOG.warn("the lock store's data is not the data this node saw before (flushed, or a"
                                + " fail-over lost it): telling holders and watchers what they missed");
                        lost.fire(new StoreDataLost());
                    }
                    return changed;
                });
    }

    /** A store without a mark gets this node's, unless another node's came first (SET NX, then GET: Redis 6.2). */
    private Uni<String> putMark() {
        return redis.execute(Command.SET, keys.storeMark(), UUID.randomUUID().toString(), "NX")
                .chain(() -> redis.execute(Command.GET, keys.storeMark()))
                .map(mark -> mark == null ? "" : mark.toString());
    }
}
