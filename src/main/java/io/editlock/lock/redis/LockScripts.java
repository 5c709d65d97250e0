package io.editlock.lock.redis;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.Holder;
import io.editlock.lock.Lock;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.lock.MovedSocket;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.ReleasedLock;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.redis.LuaScript;
import io.editlock.redis.ScriptExecutor;
import io.editlock.redis.Scripts;
import io.editlock.redis.StoreClock;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Typed calls of the lock scripts in {@code src/main/resources/lua/}: domain types in, script
 * replies (facts, read by {@link ScriptReplies}) out. Each method names the keys as the script calls them.
 */
@ApplicationScoped
public class LockScripts {

    static final LuaScript ACQUIRE = Scripts.ACQUIRE_LOCK;
    static final LuaScript RELEASE = Scripts.RELEASE_LOCK;
    static final LuaScript RELEASE_SOCKET = Scripts.RELEASE_SOCKET_LOCKS;
    static final LuaScript RENEW_SOCKET = Scripts.RENEW_SOCKET_LOCKS;
    static final LuaScript MOVE_SOCKET = Scripts.MOVE_SOCKET_LOCKS;
    static final LuaScript REAP_EXPIRED = Scripts.REAP_EXPIRED_LOCKS;
    static final LuaScript LIST = Scripts.LIST_LOCKS;
    static final LuaScript SCHEDULE_EXPIRY = Scripts.SCHEDULE_EXPIRY;
    static final LuaScript RESCHEDULE_EXPIRY = Scripts.RESCHEDULE_EXPIRY;
    static final LuaScript CANCEL_REQUEST = Scripts.CANCEL_LOCK_REQUEST;
    static final LuaScript SWITCH_USER_CONFIGURATOR = Scripts.SWITCH_USER_CONFIGURATOR;
    static final LuaScript PUT_BACK_USER_CONFIGURATOR = Scripts.PUT_BACK_USER_CONFIGURATOR;

    /**
     * What switch_user_configurator did with the user's record, and the grant it names ('' for none).
     * RECORDED: the record names the new grant; the other is the previous one, to be released. KEPT: it
     * named the new grant already. NEWER: it names a newer grant (the other), which stays.
     */
    public record UserSwitch(Outcome outcome, String other) {

        public enum Outcome {
            RECORDED,
            KEPT,
            NEWER
        }
    }

    private final ScriptExecutor executor;
    private final LockKeys keys;
    private final Duration lease;
    private final StoreClock clock;
    private final int locksPerUser;

    @Inject
    public LockScripts(ScriptExecutor executor, LockKeys keys, EditlockConfig config, StoreClock clock) {
        this(executor, keys, config.lease().ttl(), clock, config.limits().locksPerUserPerConfigurator());
    }

    /**
     * @param lease of the grants a release hands to whom waits for the lock
     * @param clock names the last moment a release may run
     * @param locksPerUser locks one user may hold in one configurator (new grants beyond them are refused)
     */
    public LockScripts(ScriptExecutor executor, LockKeys keys, Duration lease, StoreClock clock, int locksPerUser) {
        this.executor = executor;
        this.keys = keys;
        this.lease = lease;
        this.clock = clock;
        this.locksPerUser = locksPerUser;
    }

    /** @param resource with its configuratorId resolved */
    public Uni<AcquireReply> acquire(Resource resource, Holder holder, Duration lease) {
        return acquire(resource, holder, lease, 0);
    }

    /** @param request the number of this lock request on its node, by which it can be cancelled */
    public Uni<AcquireReply> acquire(Resource resource, Holder holder, Duration lease, long request) {
        long c = resource.configuratorId();
        List<String> k = List.of(
                keys.locks(c), // locks
                keys.configurator(c), // configurator
                keys.items(c), // items
                keys.voidRequest(c, holder.socketId(), request)); // void
        List<String> a = List.of(
                resource.field(),
                resource.type().wireName(),
                String.valueOf(c),
                resource.itemId() == null ? "" : String.valueOf(resource.itemId()),
                resource.page() == null ? "" : resource.page().wireName(),
                holder.userId(),
                holder.userName(),
                holder.socketId(),
                holder.nodeId(),
                String.valueOf(lease.toMillis()),
                keys.lockEventsChannel(),
                String.valueOf(request),
                String.valueOf(locksPerUser));
        return executor.run(ACQUIRE, keys.withWaiting(k, c), keys.withWaitingArgs(a, lease))
                .map(reply -> ScriptReplies.acquire(reply.toString()));
    }

    /**
     * Undoes the lock request {@code request} of the socket, whether it ran or not yet (see
     * cancel_lock_request.lua). @return what it released
     */
    public Uni<List<ReleasedLock>> cancelRequest(
            Resource resource, String socketId, long request, ReleaseReason reason, Duration keepVoid) {
        long c = resource.configuratorId();
        List<String> k = List.of(
                keys.locks(c), // locks
                keys.voidRequest(c, socketId, request)); // void
        List<String> a = List.of(
                resource.field(),
                socketId,
                String.valueOf(request),
                reason.wireName(),
                String.valueOf(c),
                keys.lockEventsChannel(),
                String.valueOf(keepVoid.toMillis()));
        return executor.run(CANCEL_REQUEST, keys.withWaiting(k, c), keys.withWaitingArgs(a, lease))
                .map(reply -> ScriptReplies.released(reply.toString()));
    }

    /** @param token 0 = the user's current grant, else exactly that grant */
    public Uni<ReleaseReply> release(
            Resource resource, String userId, long token, ReleaseReason reason, String exceptSocket) {
        long c = resource.configuratorId();
        List<String> k = List.of(keys.locks(c)); // locks
        List<String> a = List.of(
                resource.field(),
                userId,
                token == 0 ? "" : String.valueOf(token),
                reason.wireName(),
                exceptSocket,
                String.valueOf(c),
                keys.lockEventsChannel(),
                String.valueOf(clock.lastMomentToRun()));
        return executor.run(RELEASE, keys.withWaiting(k, c), keys.withWaitingArgs(a, lease))
                .map(reply -> ScriptReplies.release(reply.toString()))
                .invoke(reply -> {
                    if (reply instanceof ReleaseReply.GivenUp) {
                        // Its caller hears what it hears when no reply comes in time: nothing was released.
                        throw new LockStoreUnavailableException(
                                "the release reached the lock store too late to run", null);
                    }
                });
    }

    public Uni<List<ReleasedLock>> releaseSocket(long configuratorId, String socketId, ReleaseReason reason) {
        return releaseSocket(configuratorId, socketId, reason, -1);
    }

    /** @param upTo -1: every lock the socket keeps; else only those its lock requests up to this number granted */
    public Uni<List<ReleasedLock>> releaseSocket(
            long configuratorId, String socketId, ReleaseReason reason, long upTo) {
        return releaseSocket(configuratorId, socketId, reason, upTo < 0 ? "" : String.valueOf(upTo));
    }

    /**
     * The socket leaves its lines and take-over requests there as if it went away, and keeps its locks.
     *
     * @return what the run released on the way (leases found expired)
     */
    public Uni<List<ReleasedLock>> leaveLines(long configuratorId, String socketId) {
        return releaseSocket(configuratorId, socketId, ReleaseReason.DISCONNECT, "none");
    }

    private Uni<List<ReleasedLock>> releaseSocket(
            long configuratorId, String socketId, ReleaseReason reason, String upTo) {
        List<String> k = List.of(keys.locks(configuratorId)); // locks
        List<String> a =
                List.of(socketId, reason.wireName(), String.valueOf(configuratorId), keys.lockEventsChannel(), upTo);
        return executor.run(RELEASE_SOCKET, keys.withWaiting(k, configuratorId), keys.withWaitingArgs(a, lease))
                .map(reply -> ScriptReplies.released(reply.toString()));
    }

    /**
     * @param told the fencing token of each grant there that the socket's client was told it holds
     * @param strays grants of the socket's there not to renew (lock field to fencing token)
     * @param checked whether the socket's grants are checked at all: not a dropped socket's, whose client
     *     is told nothing until it resumes
     */
    public Uni<SocketRenewal> renewSocket(
            long configuratorId,
            String socketId,
            Duration lease,
            Map<Resource, Long> told,
            Map<String, Long> strays,
            boolean checked) {
        List<String> k =
                List.of(keys.locks(configuratorId), keys.waiting(configuratorId).get(2)); // locks, waiters
        List<String> a = new ArrayList<>(3 + 2 * (told.size() + strays.size()));
        a.add(socketId);
        a.add(String.valueOf(lease.toMillis()));
        a.add(checked ? String.valueOf(told.size()) : "");
        if (checked) {
            told.forEach((resource, token) -> {
                a.add(resource.field());
                a.add(String.valueOf(token));
            });
            strays.forEach((field, token) -> {
                a.add(field);
                a.add(String.valueOf(token));
            });
        }
        return executor.run(RENEW_SOCKET, k, a).map(reply -> {
            List<String> missing = new ArrayList<>(reply.get(2).size());
            reply.get(2).forEach(field -> missing.add(field.toString()));
            Response pairs = reply.get(3);
            Map<String, Long> untold = new HashMap<>(pairs.size());
            for (int i = 0; i + 1 < pairs.size(); i += 2) {
                untold.put(
                        pairs.get(i).toString(), Long.parseLong(pairs.get(i + 1).toString()));
            }
            return new SocketRenewal(reply.get(0).toInteger(), reply.get(1).toInteger() == 1, missing, untold);
        });
    }

    public Uni<MovedSocket> moveSocket(
            long configuratorId, String oldSocket, String newSocket, String newNode, Duration lease) {
        List<String> k = List.of(keys.locks(configuratorId)); // locks
        List<String> a = List.of(oldSocket, newSocket, newNode, String.valueOf(lease.toMillis()));
        List<String> waitingArgs = new ArrayList<>(keys.withWaitingArgs(a, lease));
        waitingArgs.add(String.valueOf(configuratorId));
        return executor.run(MOVE_SOCKET, keys.withWaiting(k, configuratorId), waitingArgs)
                .map(reply -> ScriptReplies.moved(configuratorId, reply.toString()));
    }

    /**
     * The user's configurator record moves on to {@code grant}, unless it names a newer one.
     *
     * @param grant {@code configuratorId|token|acquiredAt}
     */
    public Uni<UserSwitch> switchUserConfigurator(String userId, String grant, String ttlMillis) {
        return executor.run(
                        SWITCH_USER_CONFIGURATOR,
                        List.of(keys.userConfigurator(userId)), // record
                        List.of(grant, ttlMillis))
                .map(reply -> new UserSwitch(
                        UserSwitch.Outcome.valueOf(reply.get(0).toString().toUpperCase(Locale.ROOT)),
                        reply.get(1).toString()));
    }

    /**
     * A switch of the user's configurator whose release of the {@code previous} grant failed names that
     * grant in the user's record again, unless another switch recorded one since.
     *
     * @param recorded the grant the failed switch recorded ({@code configuratorId|token|acquiredAt}, as {@code previous})
     */
    public Uni<Void> putBackUserConfigurator(String userId, String recorded, String previous, String ttlMillis) {
        return executor.run(
                        PUT_BACK_USER_CONFIGURATOR,
                        List.of(keys.userConfigurator(userId)), // record
                        List.of(recorded, previous, ttlMillis))
                .replaceWithVoid();
    }

    /** @return what ran out, and the earliest lease end left (epoch ms, 0 when no lock is left) */
    public Uni<Reaped> reapExpired(long configuratorId) {
        List<String> k = List.of(keys.locks(configuratorId)); // locks
        return executor.run(
                        REAP_EXPIRED,
                        keys.withWaiting(k, configuratorId),
                        keys.withWaitingArgs(List.of(String.valueOf(configuratorId), keys.lockEventsChannel()), lease))
                .map(reply -> ScriptReplies.reaped(reply.toString()));
    }

    /** The live locks of a configurator. */
    public Uni<List<Lock>> list(long configuratorId) {
        return list(configuratorId, false);
    }

    /** Every lock record of a configurator, those whose lease ran out and that nobody released yet too. */
    public Uni<List<Lock>> listStored(long configuratorId) {
        return list(configuratorId, true);
    }

    private Uni<List<Lock>> list(long configuratorId, boolean withExpired) {
        List<String> k = List.of(keys.locks(configuratorId)); // locks
        return executor.run(LIST, k, List.of(withExpired ? "1" : "0"))
                .map(reply -> ScriptReplies.locks(reply.toString()));
    }

    public Uni<Void> scheduleExpiry(long configuratorId, long expiresAtMillis) {
        List<String> k = List.of(keys.leaseExpiries()); // expiries
        return executor.run(
                        SCHEDULE_EXPIRY, k, List.of(String.valueOf(configuratorId), String.valueOf(expiresAtMillis)))
                .replaceWithVoid();
    }

    public Uni<Void> rescheduleExpiry(long configuratorId, long seenMillis, long nextMillis) {
        List<String> k = List.of(keys.leaseExpiries()); // expiries
        List<String> a =
                List.of(String.valueOf(configuratorId), String.valueOf(seenMillis), String.valueOf(nextMillis));
        return executor.run(RESCHEDULE_EXPIRY, k, a).replaceWithVoid();
    }
}
