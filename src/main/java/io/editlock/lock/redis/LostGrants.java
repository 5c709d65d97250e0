package io.editlock.lock.redis;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.Resource;
import io.editlock.lock.ToldGrants;
import io.editlock.redis.LockEventsThread;
import io.editlock.redis.StoreDataWatch;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Judges the grants a lease renewal found gone from the store (docs/protocol.md §6). An end that was
 * announced reaches this node within moments, so a grant its client still believes it holds, gone for a
 * whole renew interval in which this node heard every lock event, was lost by a store that went back
 * in time (a fail-over to a replica that had not caught up): every node is then to tell what was lost
 * ({@link StoreDataWatch#wentBack}). Ends announced while this node heard nothing are the catch-up's.
 */
@ApplicationScoped
public class LostGrants {

    private final LockEventsThread events;
    private final StoreDataWatch dataWatch;
    private final long intervalNanos;

    public LostGrants(LockEventsThread events, StoreDataWatch dataWatch, EditlockConfig config) {
        this.events = events;
        this.dataWatch = dataWatch;
        this.intervalNanos = config.lease().renewInterval().toNanos();
    }

    /** To be taken when a renewal begins, and given to {@link #judge}. */
    public long renewalBegins() {
        return dataWatch.alarms();
    }

    /**
     * @param believed the grants there that the client believed it held when the renewal began
     * @param begun what {@link #renewalBegins} gave when the renewal began
     */
    public Uni<Void> judge(
            long configuratorId, ToldGrants told, Map<Resource, Long> believed, SocketRenewal renewal, long begun) {
        Map<Resource, Long> missing = new HashMap<>(2);
        believed.forEach((resource, token) -> {
            if (renewal.missing().contains(resource.field())) {
                missing.put(resource, token);
            }
        });
        long now = System.nanoTime();
        Map<Resource, Long> goneSince = told.goneSince(configuratorId, missing, now);
        return anyLost(goneSince.values(), events.heardSince(), now, intervalNanos)
                ? dataWatch.wentBack(begun)
                : Uni.createFrom().voidItem();
    }

    /**
     * Whether one of the grants, gone since those moments, was lost: gone for a whole interval, all of
     * which this node heard the lock events (all times {@link System#nanoTime()}).
     */
    static boolean anyLost(Collection<Long> goneSince, OptionalLong heardSince, long now, long intervalNanos) {
        if (heardSince.isEmpty()) {
            return false;
        }
        for (long since : goneSince) {
            if (heardSince.getAsLong() - since <= 0 && now - since >= intervalNanos) {
                return true;
            }
        }
        return false;
    }
}
