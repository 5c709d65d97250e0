package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.StoreClock;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Idleness is the user's, on every node (docs/protocol.md §6): a request on any socket of a user keeps
 * all of the user's sockets active, those on other nodes too. A node marks the user's sockets on it at
 * once, and tells the store now and then (at most once per socket per share interval, a fraction of
 * the idle timeout); a node that finds a socket idle asks the store before it releases anything,
 * because the user may be at work in a tab on another node.
 */
@ApplicationScoped
public class UserActivity {

    private static final Logger LOG = Logger.getLogger(UserActivity.class);
    /** Often enough that another node learns of the activity well within the idle timeout; rare enough to cost nothing. */
    private static final Duration SHARE_AT_MOST_EVERY = Duration.ofMinutes(1);
    /** Past this many users writing over REST, those not heard of within the share interval are forgotten. */
    private static final int FORGET_ABOVE = 10_000;

    private final SessionRegistry registry;
    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final StoreClock clock;
    private final String nodeId;
    private final long shareEveryNanos;
    private final String ttlMillis;
    /** When this node last told the store of each user's REST writes; users not heard of within the interval are forgotten. */
    private final Map<String, Long> restShared = new ConcurrentHashMap<>();

    public UserActivity(
            SessionRegistry registry,
            PipelinedRedis redis,
            LockKeys keys,
            StoreClock clock,
            NodeIdentity node,
            EditlockConfig config) {
        this.registry = registry;
        this.redis = redis;
        this.keys = keys;
        this.clock = clock;
        this.nodeId = node.id();
        Duration idleTimeout = config.session().idleTimeout();
        Duration quarter = idleTimeout.dividedBy(4);
        this.shareEveryNanos = (quarter.compareTo(SHARE_AT_MOST_EVERY) < 0 ? quarter : SHARE_AT_MOST_EVERY).toNanos();
        this.ttlMillis = String.valueOf(idleTimeout.toMillis());
    }

    /** A request of the user on this socket. */
    public void active(SocketSession session) {
        registry.markActive(session);
        if (session.shareActivityDue(shareEveryNanos)) {
            share(session.identity().userId());
        }
    }

    /**
     * A REST write of the user: as much a sign of work as a request on a socket (a script or service that
     * holds a lock and saves over REST is not idle), on whichever node it lands. The user's sockets here
     * are marked at once, the others through the store, at most once per share interval.
     */
    public void wroteOverRest(String userId) {
        registry.socketsOf(userId).forEach(SocketSession::markActive);
        long now = System.nanoTime();
        Long last = restShared.get(userId);
        if (last != null && now - last < shareEveryNanos) {
            return;
        }
        restShared.put(userId, now);
        if (restShared.size() > FORGET_ABOVE) {
            restShared.values().removeIf(shared -> now - shared >= shareEveryNanos);
        }
        share(userId);
    }

    private void share(String userId) {
        // On Redis's clock, which every node reads alike: the nodes' own clocks may be minutes apart.
        redis.execute(Command.SET, keys.userActive(userId), clock.nowMillis() + "|" + nodeId, "PX", ttlMillis)
                .subscribe()
                .with(
                        ignored -> {},
                        failure -> LOG.debugf(
                                "activity of %s not shared with other nodes: %s", userId, failure.getMessage()));
    }

    /**
     * @return how long ago another node last told the store the user was active, in ms on Redis's clock;
     *     empty when none did within the idle timeout, or when this node did last: its own sockets of the
     *     user know that already
     */
    public Uni<Optional<Long>> activityElsewhere(String userId) {
        return redis.execute(Command.GET, keys.userActive(userId)).map(reply -> {
            if (reply == null) {
                return Optional.empty();
            }
            String record = reply.toString();
            int bar = record.indexOf('|');
            if (bar < 0 || record.substring(bar + 1).equals(nodeId)) {
                return Optional.empty();
            }
            return Optional.of(Math.max(0, clock.nowMillis() - Long.parseLong(record.substring(0, bar))));
        });
    }
}
