package io.editlock.lock.redis;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.Resource;
import io.editlock.lock.ToldGrants;
import io.editlock.redis.LockEventsThread;
import io.editlock.redis.StoreDataWatch;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.WeakHashMap;
import org.jboss.logging.Logger;

/**
 * Judges what a lease renewal found different from what the socket's client was told: grants gone from
 * the store, and grants the socket keeps that its client was not told of (docs/protocol.md §6). An end that was
 * announced reaches this node within moments, so a grant its client still believes it holds, gone for a
 * whole renew interval in which this node heard every lock event, was lost by a store that went back
 * in time (a fail-over to a replica that had not caught up): every node is then to tell what was lost
 * ({@link StoreDataWatch#wentBack}). Ends announced while this node heard nothing are the catch-up's.
 */
@ApplicationScoped
public class LostGrants {

    private static final Logger LOG = Logger.getLogger(LostGrants.class);

    private final LockEventsThread events;
    private final StoreDataWatch dataWatch;
    private final long intervalNanos;
    /**
     * How long a grant its client was told nothing of is renewed all the same: a resume the store
     * carried out too late to answer may be retried while the old socket's grace period lasts, and a
     * retry tells the client of it. A renew interval more, so that the last retry is answered.
     */
    private final long retriesNanos;
    /**
     * By the socket's grants and configurator, its strays: those to be said, and those said. A note of a
     * grant found untold is taken before the renewal looks, and may be all that is left of a grant that
     * ended since (a request given back after the store granted it, whose end its client was then
     * told): a stray is said only once the renewal that leaves it out finds the socket still keeping
     * it, for only the store tells whether it brought the grant back. Said once for all, as a stray
     * another socket keeps alive is found again at every renewal. Weak keys: a socket that ends leaves
     * nothing behind.
     */
    private final Map<ToldGrants, Map<Long, Strays>> judgedStrays = new WeakHashMap<>();

    /** Lock field to fencing token, each. */
    private record Strays(String socketId, Map<String, Long> toSay, Map<String, Long> said) {}

    public LostGrants(LockEventsThread events, StoreDataWatch dataWatch, EditlockConfig config) {
        this.events = events;
        this.dataWatch = dataWatch;
        this.intervalNanos = config.lease().renewInterval().toNanos();
        Duration grace = config.session().gracePeriod();
        Duration reloadGrace = config.session().reloadGrace();
        this.retriesNanos = (grace.compareTo(reloadGrace) >= 0 ? grace : reloadGrace).toNanos() + intervalNanos;
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
        told.foundUntold(configuratorId, renewal.untold(), now);
        strayConfirmed(configuratorId, told, renewal.untold());
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
        for (long since : goneSince) {
            if (judged(since, heardSince, now, intervalNanos)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The grants of the socket's in that configurator that its next renewal is to leave out: the store
     * brought them back after they ended (docs/protocol.md §6), for its client was told they ended, and
     * renewals have found the socket keeping them for a whole interval; or its client was told nothing
     * of them for longer than a resume may be retried, all of it heard (a resume the store carried out
     * too late to answer, which the client did not retry). Their leases run out, and the reaper
     * announces their end, as of any lease that ran out. No break in hearing the lock events changes
     * the first kind: the client was told of the end, and no catch-up would tell it otherwise. A grant
     * from a line announced while this node heard nothing is told by the catch-up, so the second kind
     * is judged only over a time in which this node heard every announcement.
     *
     * @return lock field to fencing token
     */
    public Map<String, Long> strays(long configuratorId, String socketId, ToldGrants told) {
        Map<String, Long> strays = new HashMap<>(2);
        long now = System.nanoTime();
        for (ToldGrants.Untold grant : told.untold(configuratorId)) {
            if (now - grant.since() >= intervalNanos) {
                strays.put(grant.field(), grant.token());
            }
        }
        leftOut(configuratorId, socketId, told, strays);
        OptionalLong heardSince = events.heardSince();
        Map<String, Long> neverTold = new HashMap<>(2);
        boolean firstNeverTold = false;
        for (ToldGrants.Untold grant : told.neverTold(configuratorId)) {
            if (judged(grant.since(), heardSince, now, retriesNanos)) {
                neverTold.put(grant.field(), grant.token());
                firstNeverTold |= now - grant.since() < retriesNanos + intervalNanos;
            }
        }
        if (firstNeverTold) {
            LOG.infof(
                    "socket %s keeps grants in configurator %d that its client was never told of %s (a resume"
                            + " answered UNAVAILABLE and not retried): they are no longer renewed",
                    socketId, configuratorId, neverTold.keySet());
        }
        strays.putAll(neverTold);
        return strays;
    }

    /** Notes the strays the renewal about to look leaves out: those not said yet are to be said. */
    private void leftOut(long configuratorId, String socketId, ToldGrants told, Map<String, Long> judged) {
        synchronized (judgedStrays) {
            Map<Long, Strays> byConfigurator = judgedStrays.get(told);
            if (judged.isEmpty()) {
                if (byConfigurator != null) {
                    byConfigurator.remove(configuratorId);
                    if (byConfigurator.isEmpty()) {
                        judgedStrays.remove(told);
                    }
                }
                return;
            }
            Strays before = byConfigurator == null ? null : byConfigurator.get(configuratorId);
            Map<String, Long> said = new HashMap<>(2);
            Map<String, Long> toSay = new HashMap<>(2);
            judged.forEach((field, token) -> {
                boolean saidBefore =
                        before != null && token.equals(before.said().get(field));
                (saidBefore ? said : toSay).put(field, token);
            });
            judgedStrays
                    .computeIfAbsent(told, ignored -> new HashMap<>(1))
                    .put(configuratorId, new Strays(socketId, toSay, said));
        }
    }

    /** Says the strays to be said that the renewal, which left them out, found the socket still keeping. */
    private void strayConfirmed(long configuratorId, ToldGrants told, Map<String, Long> untold) {
        Strays judged;
        Map<String, Long> kept = new HashMap<>(2);
        synchronized (judgedStrays) {
            Map<Long, Strays> byConfigurator = judgedStrays.get(told);
            judged = byConfigurator == null ? null : byConfigurator.get(configuratorId);
            if (judged == null || judged.toSay().isEmpty()) {
                return;
            }
            judged.toSay().forEach((field, token) -> {
                if (token.equals(untold.get(field))) {
                    kept.put(field, token);
                }
            });
            // Those not found are gone: nothing to say of them, unless renewals find them again.
            Map<String, Long> said = new HashMap<>(judged.said());
            said.putAll(kept);
            byConfigurator.put(configuratorId, new Strays(judged.socketId(), Map.of(), said));
        }
        if (!kept.isEmpty()) {
            LOG.warnf(
                    "socket %s keeps grants in configurator %d that its client was told ended %s: the lock store"
                            + " brought them back (a fail-over to a replica behind?); they are no longer renewed",
                    judged.socketId(), configuratorId, kept.keySet());
        }
    }

    /** Found so since {@code since}, for a whole interval, all of which this node heard the lock events. */
    private static boolean judged(long since, OptionalLong heardSince, long now, long intervalNanos) {
        return heardSince.isPresent() && heardSince.getAsLong() - since <= 0 && now - since >= intervalNanos;
    }
}
