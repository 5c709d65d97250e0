package io.editlock.lock;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.config.EditlockConfig;
import io.editlock.lock.redis.LockRecords;
import io.editlock.lock.redis.LockScripts;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The one API of edit locks that the WebSocket and REST layers call. Every decision is one script
 * run in the configurator's hash slot; this class resolves items to configurators, keeps the
 * per-socket and per-user indexes, and turns script replies into results. Every failure to reach
 * the store surfaces as {@link LockStoreUnavailableException}.
 */
@ApplicationScoped
public class LockService {

    private static final Logger LOG = Logger.getLogger(LockService.class);
    /**
     * How long a lock request the server gave up stays void in the store: longer than any command
     * can sit unread in a frozen Redis or a stuck failover before it runs.
     */
    private static final Duration VOID_REQUESTS_FOR = Duration.ofMinutes(10);

    private final LockScripts scripts;
    private final ConfiguratorStore catalog;
    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final Duration lease;
    private final LockAudit audit;
    /**
     * Which configurators each socket of this node is already listed under in its Redis index: the
     * index only grows while the socket lives (renewals keep its TTL), so a repeated lock in the same
     * configurator need not write it again — two of the six commands of a lock-and-unlock. Only
     * while renewals keep it: an idle socket is not renewed, so its entry goes with its idle release.
     */
    private final Map<String, Set<Long>> indexedBySocket = new ConcurrentHashMap<>();
    /** Numbers the lock requests of this node: a request that starts later has a larger one. */
    private final AtomicLong requests = new AtomicLong();

    public LockService(LockScripts scripts, ConfiguratorStore catalog, PipelinedRedis redis, LockKeys keys,
            EditlockConfig config, LockAudit audit) {
        this.audit = audit;
        this.scripts = scripts;
        this.catalog = catalog;
        this.redis = redis;
        this.keys = keys;
        this.lease = config.lease().ttl();
    }

    public Uni<AcquireResult> acquire(Resource requested, Holder holder) {
        return resolve(requested).flatMap(resolved -> resolved.isEmpty()
                ? Uni.createFrom().<AcquireResult>item(new AcquireResult.NotFound(requested))
                : acquireResolved(resolved.get(), holder))
                .onFailure().transform(LockService::unavailable);
    }

    /** An explicit unlock by the user, from any of their sockets. */
    public Uni<ReleaseResult> release(Resource requested, String userId, String socketId) {
        return resolve(requested).flatMap(resolved -> resolved.isEmpty()
                ? Uni.createFrom().<ReleaseResult>item(new ReleaseResult.NotHeld(requested))
                : scripts.release(resolved.get(), userId, 0, ReleaseReason.UNLOCK, socketId).map(this::audited)
                        .map(reply -> releaseResult(resolved.get(), reply, ReleaseReason.UNLOCK, socketId)))
                .onFailure().transform(LockService::unavailable);
    }

    /** Releases exactly this grant (by its token), if it still exists: admin break-lock, deletes. */
    public Uni<ReleaseResult> releaseGrant(Lock grant, ReleaseReason reason, String exceptSocketId) {
        return scripts.release(grant.resource(), grant.ownerUserId(), grant.token(), reason, exceptSocketId)
                .map(this::audited)
                .map(reply -> releaseResult(grant.resource(), reply, reason, exceptSocketId))
                .onFailure().transform(LockService::unavailable);
    }

    /** The socket is gone: release what no other socket keeps, per configurator atomically. */
    public Uni<List<ReleasedLock>> releaseSocket(String socketId, ReleaseReason reason) {
        indexedBySocket.remove(socketId); // also when the store is unreachable: the socket is gone
        return releaseKept(socketId, reason, -1)
                .flatMap(released -> forgetIndex(socketId).replaceWith(released))
                .onFailure().transform(LockService::unavailable);
    }

    /**
     * The socket's user is idle: release what the socket's lock requests up to {@code decidedAt} (see
     * {@link #lastRequest()}) gave it and no other socket keeps. A grant after the decision stays.
     */
    public Uni<List<ReleasedLock>> releaseIdle(String socketId, long decidedAt) {
        // Nobody renews the index of an idle socket, so it runs out: the next grant must write it again.
        indexedBySocket.remove(socketId);
        return releaseKept(socketId, ReleaseReason.IDLE, decidedAt).onFailure().transform(LockService::unavailable);
    }

    /** The number of the latest lock request of this node: every later one has a larger number. */
    public long lastRequest() {
        return requests.get();
    }

    private Uni<List<ReleasedLock>> releaseKept(String socketId, ReleaseReason reason, long upTo) {
        return configuratorsOf(keys.socketConfigurators(socketId))
                .flatMap(ids -> Multi.createFrom().iterable(ids)
                        .onItem().transformToUniAndMerge(id -> scripts.releaseSocket(id, socketId, reason, upTo))
                        .invoke(audit::released)
                        .collect().asList())
                .map(LockService::flatten);
    }

    /** The socket lives: renew the leases it keeps. @return the number of locks renewed */
    public Uni<Integer> renewSocket(String socketId, String userId) {
        String index = keys.socketConfigurators(socketId);
        String ttl = String.valueOf(indexTtl().toMillis());
        return configuratorsOf(index)
                .flatMap(ids -> Multi.createFrom().iterable(ids)
                        .onItem().transformToUniAndMerge(id -> scripts.renewSocket(id, socketId, lease))
                        .collect().with(java.util.stream.Collectors.summingInt(Integer::intValue)))
                .call(() -> redis.execute(Command.PEXPIRE, index, ttl))
                .call(() -> redis.execute(Command.PEXPIRE, keys.userConfigurator(userId), ttl))
                .onFailure().transform(LockService::unavailable);
    }

    /** Resume: the locks a dropped socket kept move to the new socket, same grants. */
    public Uni<List<Lock>> moveSocket(String oldSocketId, String newSocketId, String newNodeId) {
        String oldIndex = keys.socketConfigurators(oldSocketId);
        return configuratorsOf(oldIndex)
                .flatMap(ids -> ids.isEmpty() ? Uni.createFrom().item(List.<List<Lock>>of())
                        : addToIndex(newSocketId, ids).chain(() -> Multi.createFrom().iterable(ids)
                                .onItem().transformToUniAndMerge(id -> scripts.moveSocket(id, oldSocketId, newSocketId, newNodeId, lease))
                                .collect().asList()))
                .flatMap(lists -> forgetIndex(oldSocketId).replaceWith(flatten(lists)))
                .onFailure().transform(LockService::unavailable);
    }

    /** The live locks of a configurator (empty for one that does not exist). */
    public Uni<List<Lock>> locks(long configuratorId) {
        return scripts.list(configuratorId).onFailure().transform(LockService::unavailable);
    }

    public Duration lease() {
        return lease;
    }

    /** Whether this node still keeps bookkeeping of the socket (for tests of its end). */
    boolean tracksSocket(String socketId) {
        return indexedBySocket.containsKey(socketId);
    }

    private Uni<AcquireResult> acquireResolved(Resource resource, Holder holder) {
        long request = requests.incrementAndGet();
        long configuratorId = resource.configuratorId();
        // The socket index is written beside the grant, in the same moment: a socket may be listed
        // where it keeps nothing (harmless), and a grant it misses still ends with its lease.
        Set<Long> indexed = indexedBySocket.computeIfAbsent(holder.socketId(), id -> ConcurrentHashMap.newKeySet());
        Uni<Void> index = indexed.contains(configuratorId) ? Uni.createFrom().voidItem()
                : addToIndex(holder.socketId(), List.of(configuratorId)).invoke(() -> indexed.add(configuratorId));
        return Uni.combine().all().unis(index, scripts.acquire(resource, holder, lease, request)).collectFailures()
                .with((ignored, reply) -> audited(reply))
                .flatMap(reply -> switch (reply.path("s").asText()) {
                    case "GRANTED" -> granted(resource, holder, reply);
                    case "LOCKED" -> Uni.createFrom().item(refused(resource, holder, LockRecords.lock(reply.path("lock"))));
                    case "NOT_FOUND" -> Uni.createFrom().item(new AcquireResult.NotFound(resource));
                    case "VOID" -> throw new LockStoreUnavailableException("the request was given up before it ran", null);
                    default -> throw new IllegalStateException("acquire_lock answered " + reply);
                })
                // The requester hears UNAVAILABLE, so it must hold nothing for this request, also when
                // the script ran after all (a timeout) or a step after the grant failed.
                .onFailure().invoke(() -> giveBack(resource, holder.socketId(), request));
    }

    /**
     * Undoes a lock request the requester was told failed, until the store confirms it: a late grant
     * is released and announced, a request still waiting in Redis will do nothing when it runs.
     */
    private void giveBack(Resource resource, String socketId, long request) {
        scripts.cancelRequest(resource, socketId, request, ReleaseReason.UNLOCK, VOID_REQUESTS_FOR)
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5))
                .expireIn(VOID_REQUESTS_FOR.toMillis())
                .subscribe().with(audit::released, failure -> LOG.warnf(
                        "lock request %d of socket %s could not be undone: %s", request, socketId, failure.getMessage()));
    }

    private AcquireResult refused(Resource resource, Holder holder, Lock blocking) {
        audit.refused(resource, holder.userId(), blocking);
        return new AcquireResult.Refused(resource, blocking);
    }

    private JsonNode audited(JsonNode reply) {
        audit.released(LockRecords.released(reply.path("released")));
        return reply;
    }

    private Uni<AcquireResult> granted(Resource resource, Holder holder, JsonNode reply) {
        Lock lock = LockRecords.lock(reply.path("lock"));
        boolean reentry = reply.path("reentry").asBoolean();
        audit.granted(lock, reentry);
        // Only when no look at the configurator is due before this lease ends (acquire_lock decides).
        Uni<Void> scheduled = !reply.path("schedule").asBoolean() ? Uni.createFrom().voidItem()
                : scripts.scheduleExpiry(resource.configuratorId(), lock.expiresAt().toEpochMilli());
        Uni<List<Resource>> released = resource.type() != ResourceType.CONFIGURATOR ? Uni.createFrom().item(List.of())
                : reentry ? rememberConfigurator(lock, holder).replaceWith(List.<Resource>of())
                : replacePreviousConfigurator(lock, holder);
        return Uni.combine().all().unis(scheduled, released)
                .with((ignored, taken) -> new AcquireResult.Granted(lock, reentry, taken));
    }

    /**
     * One configurator per user: the new one is already granted; now record it and release the
     * previous one by its exact grant. Two concurrent switches both end with one configurator held.
     */
    private Uni<List<Resource>> replacePreviousConfigurator(Lock lock, Holder holder) {
        String current = lock.resource().configuratorId() + "|" + lock.token();
        return redis.execute(Command.SET, keys.userConfigurator(holder.userId()), current, "GET",
                        "PX", String.valueOf(indexTtl().toMillis()))
                .flatMap(previous -> {
                    Optional<Lock> old = previousGrant(previous, lock, holder.userId());
                    if (old.isEmpty()) {
                        return Uni.createFrom().item(List.<Resource>of());
                    }
                    return scripts.release(old.get().resource(), holder.userId(), old.get().token(), ReleaseReason.REPLACED,
                                    holder.socketId())
                            .map(this::audited)
                            .map(reply -> "RELEASED".equals(reply.path("s").asText())
                                    ? List.of(old.get().resource()) : List.<Resource>of());
                });
    }

    /**
     * A re-entry changes nothing: it never takes the user's record over (a concurrent switch to
     * another configurator would then release this one, and this one that). It only restores a record
     * that ran out.
     */
    private Uni<Void> rememberConfigurator(Lock lock, Holder holder) {
        String current = lock.resource().configuratorId() + "|" + lock.token();
        return redis.execute(Command.SET, keys.userConfigurator(holder.userId()), current, "NX",
                "PX", String.valueOf(indexTtl().toMillis())).replaceWithVoid();
    }

    private static Optional<Lock> previousGrant(Response previous, Lock current, String userId) {
        if (previous == null) {
            return Optional.empty();
        }
        String[] parts = previous.toString().split("\\|");
        long configuratorId = Long.parseLong(parts[0]);
        if (configuratorId == current.resource().configuratorId()) {
            return Optional.empty();
        }
        return Optional.of(new Lock(Resource.configurator(configuratorId), userId, "", null, null,
                Long.parseLong(parts[1]), java.util.Map.of()));
    }

    private static ReleaseResult releaseResult(Resource resource, JsonNode reply, ReleaseReason reason, String exceptSocketId) {
        if (!"RELEASED".equals(reply.path("s").asText())) {
            return new ReleaseResult.NotHeld(resource);
        }
        return new ReleaseResult.Released(new ReleasedLock(LockRecords.lock(reply.path("lock")), reason, exceptSocketId));
    }

    /** Fills in the configurator of an item page; empty when the item does not exist. */
    private Uni<Optional<Resource>> resolve(Resource requested) {
        if (requested.configuratorId() != null) {
            return Uni.createFrom().item(Optional.of(requested));
        }
        return catalog.configuratorOfItem(requested.itemId()).map(id -> id.map(requested::inConfigurator));
    }

    private Uni<List<Long>> configuratorsOf(String index) {
        return redis.execute(Command.SMEMBERS, index).map(reply -> {
            List<Long> ids = new ArrayList<>();
            if (reply != null) {
                reply.forEach(member -> ids.add(member.toLong()));
            }
            return ids;
        });
    }

    private Uni<Void> addToIndex(String socketId, List<Long> configuratorIds) {
        String index = keys.socketConfigurators(socketId);
        List<String> args = new ArrayList<>();
        args.add(index);
        configuratorIds.forEach(id -> args.add(String.valueOf(id)));
        return Uni.combine().all().unis(redis.execute(Command.SADD, args.toArray(String[]::new)),
                redis.execute(Command.PEXPIRE, index, String.valueOf(indexTtl().toMillis()))).collectFailures().discardItems();
    }

    private Uni<Void> forgetIndex(String socketId) {
        indexedBySocket.remove(socketId);
        return redis.execute(Command.DEL, keys.socketConfigurators(socketId)).replaceWithVoid();
    }

    /** Indexes outlive the leases they point at; renewals keep both going. */
    private Duration indexTtl() {
        return lease.multipliedBy(2);
    }

    private static <T> List<T> flatten(List<List<T>> lists) {
        List<T> all = new ArrayList<>();
        lists.forEach(all::addAll);
        return all;
    }

    private static Throwable unavailable(Throwable failure) {
        return failure instanceof LockStoreUnavailableException ? failure
                : new LockStoreUnavailableException("the lock store cannot be reached: " + failure.getMessage(), failure);
    }
}
