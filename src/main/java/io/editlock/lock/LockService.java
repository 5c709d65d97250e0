package io.editlock.lock;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.redis.AcquireReply;
import io.editlock.lock.redis.LockRequests;
import io.editlock.lock.redis.LockScripts;
import io.editlock.lock.redis.ReleaseReply;
import io.editlock.lock.redis.SocketIndex;
import io.editlock.lock.redis.SocketLocks;
import io.editlock.lock.redis.UserConfigurators;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * The one API of edit locks that the WebSocket and REST layers call. Every decision is one script
 * run in the configurator's hash slot; this class resolves items to configurators, keeps the
 * {@link SocketIndex} and the {@link UserConfigurators} record beside the grants, and turns script
 * replies into results; what a socket keeps is handled by {@link SocketLocks}. Every failure to reach the store surfaces as {@link LockStoreUnavailableException}.
 */
@ApplicationScoped
public class LockService {

    private final LockScripts scripts;
    private final ItemOwners items;
    private final SocketIndex sockets;
    private final SocketLocks socketLocks;
    private final UserConfigurators users;
    private final LockRequests requests;
    private final LockAudit audit;
    private final Duration lease;

    public LockService(
            LockScripts scripts,
            ItemOwners items,
            SocketIndex sockets,
            SocketLocks socketLocks,
            UserConfigurators users,
            LockRequests requests,
            EditlockConfig config,
            LockAudit audit) {
        this.scripts = scripts;
        this.items = items;
        this.sockets = sockets;
        this.socketLocks = socketLocks;
        this.users = users;
        this.requests = requests;
        this.audit = audit;
        this.lease = config.lease().ttl();
    }

    public Uni<AcquireResult> acquire(Resource requested, Holder holder) {
        return items.resolve(requested)
                .flatMap(resolved -> resolved.isEmpty()
                        ? Uni.createFrom().<AcquireResult>item(new AcquireResult.NotFound(requested))
                        : acquireResolved(resolved.get(), holder))
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /** An explicit unlock by the user, from any of their sockets. */
    public Uni<ReleaseResult> release(Resource requested, String userId, String socketId) {
        return items.resolve(requested)
                .flatMap(resolved -> resolved.isEmpty()
                        ? Uni.createFrom().<ReleaseResult>item(new ReleaseResult.NotHeld(requested))
                        : release(resolved.get(), userId, 0, ReleaseReason.UNLOCK, socketId))
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /** Releases exactly this grant (by its token), if it still exists: admin break-lock, deletes. */
    public Uni<ReleaseResult> releaseGrant(Lock grant, ReleaseReason reason, String exceptSocketId) {
        return release(grant.resource(), grant.ownerUserId(), grant.token(), reason, exceptSocketId)
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /** The socket is gone: release what no other socket keeps, per configurator atomically. */
    public Uni<List<ReleasedLock>> releaseSocket(String socketId, ReleaseReason reason) {
        return socketLocks.releaseAll(socketId, reason).onFailure().transform(LockStoreUnavailableException::of);
    }

    /**
     * The socket's user is idle: release what the socket's lock requests up to {@code decidedAt} (see
     * {@link #lastRequest()}) gave it and no other socket keeps. A grant after the decision stays.
     */
    public Uni<List<ReleasedLock>> releaseIdle(String socketId, long decidedAt) {
        return socketLocks.releaseIdle(socketId, decidedAt).onFailure().transform(LockStoreUnavailableException::of);
    }

    /** The number of the latest lock request of this node: every later one has a larger number. */
    public long lastRequest() {
        return requests.last();
    }

    /** The socket lives: renew the leases it keeps (and the user's configurator record). @return the number renewed */
    public Uni<Integer> renewSocket(String socketId, String userId) {
        return socketLocks
                .renew(socketId)
                .call(() -> users.renew(userId))
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /** Resume: the locks a dropped socket kept move to the new socket, same grants. */
    public Uni<List<Lock>> moveSocket(String oldSocketId, String newSocketId, String newNodeId) {
        return socketLocks
                .move(oldSocketId, newSocketId, newNodeId)
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /** The live locks of a configurator (empty for one that does not exist). */
    public Uni<List<Lock>> locks(long configuratorId) {
        return scripts.list(configuratorId).onFailure().transform(LockStoreUnavailableException::of);
    }

    public Duration lease() {
        return lease;
    }

    /** Whether this node still keeps bookkeeping of the socket (for tests of its end). */
    boolean tracksSocket(String socketId) {
        return sockets.tracks(socketId);
    }

    private Uni<AcquireResult> acquireResolved(Resource resource, Holder holder) {
        long request = requests.next();
        // The socket index is written beside the grant, in the same moment: a socket may be listed
        // where it keeps nothing (harmless), and a grant it misses still ends with its lease.
        return Uni.combine()
                .all()
                .unis(
                        sockets.add(holder.socketId(), resource.configuratorId()),
                        scripts.acquire(resource, holder, lease, request))
                .collectFailures()
                .with((indexed, reply) -> reply)
                .invoke(reply -> audit.released(reply.released()))
                .flatMap(reply -> decided(resource, holder, reply))
                // The requester hears UNAVAILABLE, so it must hold nothing for this request, also when
                // the script ran after all (a timeout) or a step after the grant failed.
                .onFailure()
                .invoke(() -> requests.giveBack(resource, holder.socketId(), request));
    }

    private Uni<AcquireResult> decided(Resource resource, Holder holder, AcquireReply reply) {
        if (reply instanceof AcquireReply.Granted granted) {
            return granted(resource, holder, granted);
        }
        if (reply instanceof AcquireReply.Locked locked) {
            audit.refused(resource, holder.userId(), locked.blocking());
            return Uni.createFrom().item(new AcquireResult.Refused(resource, locked.blocking()));
        }
        if (reply instanceof AcquireReply.NotFound) {
            return Uni.createFrom().item(new AcquireResult.NotFound(resource));
        }
        // GivenUp: this node had given the request up before it ran, and told the requester so.
        throw new LockStoreUnavailableException("the request was given up before it ran", null);
    }

    private Uni<AcquireResult> granted(Resource resource, Holder holder, AcquireReply.Granted reply) {
        Lock lock = reply.lock();
        audit.granted(lock, reply.reentry());
        // Only when no look at the configurator is due before this lease ends (acquire_lock decides).
        Uni<Void> scheduled = !reply.schedule()
                ? Uni.createFrom().voidItem()
                : scripts.scheduleExpiry(
                        resource.configuratorId(), lock.expiresAt().toEpochMilli());
        Uni<List<Resource>> released = resource.type() != ResourceType.CONFIGURATOR
                ? Uni.createFrom().item(List.of())
                : reply.reentry()
                        ? users.restore(lock).replaceWith(List.<Resource>of())
                        : users.switchTo(lock, holder.socketId());
        return Uni.combine()
                .all()
                .unis(scheduled, released)
                .with((ignored, taken) -> new AcquireResult.Granted(lock, reply.reentry(), taken));
    }

    /** @param token 0 = the user's current grant, else exactly that grant */
    private Uni<ReleaseResult> release(
            Resource resource, String userId, long token, ReleaseReason reason, String exceptSocketId) {
        return scripts.release(resource, userId, token, reason, exceptSocketId)
                .invoke(reply -> audit.released(reply.released()))
                .map(reply -> reply instanceof ReleaseReply.Released released
                        ? new ReleaseResult.Released(new ReleasedLock(released.lock(), reason, exceptSocketId))
                        : new ReleaseResult.NotHeld(resource));
    }
}
