package io.editlock.redis;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Notices that Redis lost its data while this node's connections stayed up ({@code FLUSHALL}, a
 * fail-over to a replica that had not caught up): no release of the locks that went is ever
 * announced, so their holders would go on editing and watchers keep showing them. A restart that cuts
 * the connections is noticed by the subscriptions; this is for what they cannot hear. A mark key
 * lives in Redis for as long as its data does (on a Redis Cluster, one on every shard, for a shard can
 * lose its data alone: {@link StoreMarks}); a node that finds one gone or replaced fires
 * {@link StoreDataLost}, and the event relays tell what was missed as after a cut subscription. A loss
 * that cut the subscriptions is told by their catch-up alone ({@link #catchingUp}): while one is down,
 * a look compares nothing, also when Redis is back before the subscription is.
 *
 * <p>A store that lost only its latest writes (a fail-over to a replica a moment behind) keeps its
 * mark. The lease renewals of a socket then find a grant its client was told of gone for a whole renew
 * interval in which the node heard every lock event and no end of it, and call {@link #wentBack}: the marks are replaced, so that every
 * node catches up as for a lost mark, this one at once.
 */
@ApplicationScoped
public class StoreDataWatch {

    private static final Logger LOG = Logger.getLogger(StoreDataWatch.class);

    private final PipelinedRedis redis;
    private final StoreMarks marks;
    private final ListeningReadiness listening;
    private final Event<StoreDataLost> lost;
    /** Each mark as this node last saw it, by its key; empty before the first look. */
    private Map<String, String> seen = Map.of();
    /** How often this node found the data lost: a renewal that began before the last time is caught up by it. */
    private long alarms;
    /** A {@link #wentBack} is replacing the marks: the catch-up it fires covers what other renewals find meanwhile. */
    private boolean replacing;

    public StoreDataWatch(
            PipelinedRedis redis, StoreMarks marks, ListeningReadiness listening, Event<StoreDataLost> lost) {
        this.redis = redis;
        this.marks = marks;
        this.listening = listening;
        this.lost = lost;
    }

    /**
     * Fired when the store's data is not the data this node saw before.
     *
     * @param toldByCatchUp found as a subscription was made again: its catch-up tells holders and watchers
     *     what they missed, and observers that would tell them too leave it to that
     */
    public record StoreDataLost(boolean toldByCatchUp) {}

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
        return Uni.createFrom().deferred(() -> {
            long before = alarms();
            return marks.keys().flatMap(keys -> each(keys, this::read)).map(now -> {
                boolean changed = compare(now, before);
                if (changed) {
                    LOG.warn("the lock store's data is not the data this node saw before (flushed, or a"
                            + " fail-over lost it): telling holders and watchers what they missed");
                    lost.fire(new StoreDataLost(false));
                }
                return changed;
            });
        });
    }

    /**
     * A subscription is about to be made again after it was lost, and its owner's catch-up reads the store
     * after this: the marks as they are now are taken as seen. A loss before now is what that catch-up
     * makes up for, and the next look does not announce it once more; a loss after now changes the marks
     * again. Counted as an alarm, so that a look under way, which read before this, compares nothing.
     */
    public Uni<Void> catchingUp() {
        return Uni.createFrom()
                .deferred(() -> marks.keys().flatMap(keys -> each(keys, this::read)))
                .invoke(now -> {
                    if (adopt(now)) {
                        lost.fire(new StoreDataLost(true));
                    }
                })
                .onFailure()
                .invoke(failure -> LOG.debugf("store mark not read before a catch-up: %s", failure.getMessage()))
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    /** @return whether the store came back without the data seen before */
    private synchronized boolean adopt(Map<String, String> now) {
        boolean changed = changedSince(seen, now);
        if (changed) {
            LOG.warn("the lock store came back without the data this node saw before (a restart without its"
                    + " files, a fail-over): the catch-up tells holders and watchers what they missed");
        }
        seen = now;
        alarms++;
        return changed;
    }

    /** Whether a mark seen before is there no longer; a mark not seen before (a new shard, the first look) is no loss. */
    private static boolean changedSince(Map<String, String> last, Map<String, String> now) {
        return now.entrySet().stream()
                .anyMatch(mark -> last.containsKey(mark.getKey())
                        && !last.get(mark.getKey()).equals(mark.getValue()));
    }

    /** Whether the marks read are not the ones seen before; counts the alarm when they are not. */
    private synchronized boolean compare(Map<String, String> now, long alarmsBefore) {
        // The marks were replaced since this look began: what it read may be from before that.
        if (alarms != alarmsBefore) {
            return false;
        }
        // A subscription that is down makes up for everything once it is back, this loss included (its
        // catchingUp takes the marks it finds as seen). Told now as well, every watcher would read twice.
        if (!listening.hearsAll()) {
            return false;
        }
        boolean changed = changedSince(seen, now);
        seen = now;
        if (changed) {
            alarms++;
        }
        return changed;
    }

    /** How often this node found the store's data lost so far; see {@link #wentBack}. */
    public synchronized long alarms() {
        return alarms;
    }

    /**
     * A renewal found a grant lost by the store: it went back in time while this node's connections
     * stayed up. Every mark is replaced, so that the other nodes catch up at their next look, and this
     * node catches up now; when the marks cannot be written, this node catches up all the same.
     *
     * @param alarmsBefore {@link #alarms()} when the renewal began: when this node found the data lost
     *     since, that catch-up read the store after this renewal's loss and covers it
     */
    public Uni<Void> wentBack(long alarmsBefore) {
        synchronized (this) {
            // A replacement under way tells what this renewal found too: its catch-up reads after it.
            if (alarms != alarmsBefore || replacing) {
                return Uni.createFrom().voidItem();
            }
            replacing = true;
        }
        LOG.warn("the lock store lost grants it had answered (a fail-over to a replica that had not caught up?):"
                + " telling holders and watchers what they missed, on every node");
        return marks.keys()
                .flatMap(keys -> each(keys, this::replace))
                .onFailure()
                .invoke(failure -> LOG.warnf(
                        "the store marks were not replaced (%s): the other nodes catch up only if they find the"
                                + " loss themselves",
                        failure.getMessage()))
                .onFailure()
                .recoverWithNull()
                .invoke(now -> {
                    if (replaced(now, alarmsBefore)) {
                        lost.fire(new StoreDataLost(false));
                    }
                })
                .eventually(this::replaceEnded)
                .replaceWithVoid();
    }

    /**
     * The marks are replaced ({@code now}; null when they could not be): whether this node is still to
     * catch up, which it is unless a look found the new marks first and raised the alarm itself.
     */
    private synchronized boolean replaced(Map<String, String> now, long alarmsBefore) {
        if (now != null) {
            seen = now;
        }
        if (alarms != alarmsBefore) {
            return false;
        }
        alarms++;
        return true;
    }

    private synchronized void replaceEnded() {
        replacing = false;
    }

    /**
     * The mark that follows the one this node saw. Every node that finds the same loss writes the same
     * one, so that each node catches up once, not once for each node that found it.
     */
    private Uni<String> replace(String key) {
        String last = seenMark(key);
        String mark = UUID.nameUUIDFromBytes((last + " went back").getBytes(StandardCharsets.UTF_8))
                .toString();
        return redis.execute(Command.SET, key, mark).replaceWith(mark);
    }

    private synchronized String seenMark(String key) {
        return seen.getOrDefault(key, "");
    }

    /** The mark of each key, by its key, as {@code mark} reads or writes it. */
    private static Uni<Map<String, String>> each(List<String> keys, Function<String, Uni<String>> mark) {
        return Uni.join().all(keys.stream().map(mark).toList()).andFailFast().map(values -> {
            Map<String, String> marks = new HashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                marks.put(keys.get(i), values.get(i));
            }
            return marks;
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
