package io.editlock.lock;

import io.editlock.config.EditlockConfig;
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
import java.util.Optional;

/**
 * The one API of edit locks that the WebSocket and REST layers call. Every decision is one script
 * run in the configurator's hash slot. This class resolves items to configurators and hands each
 * request on: a lock to {@link LockAcquisition}, what a socket keeps to {@link SocketLocks}. Every
 * failure to reach the store surfaces as {@link LockStoreUnavailableException}.
 */
@ApplicationScoped
public class LockService {

    private final LockScripts scripts;
    private final ItemOwners items;
    private final LockAcquisition acquisition;
    private final SocketIndex sockets;
    private final SocketLocks socketLocks;
    private final UserConfigurators users;
    private final LockRequests requests;
    private final LockAudit audit;
    private final Duration lease;

    public LockService(
            LockScripts scripts,
            ItemOwners items,
            LockAcquisition acquisition,
            SocketIndex sockets,
            SocketLocks socketLocks,
            UserConfigurators users,
            LockRequests requests,
            EditlockConfig config,
            LockAudit audit) {
        this.scripts = scripts;
        this.items = items;
        this.acquisition = acquisition;
        this.sockets = sockets;
        this.socketLocks = socketLocks;
        this.users = users;
        this.requests = requests;
        this.audit = audit;
        this.lease = config.lease().ttl();
    }

    public Uni<AcquireResult> acquire(Resource requested, Holder holder) {
        return storeFailures(items.resolve(requested)
                .flatMap(resolved -> resolved.isEmpty()
                        ? Uni.createFrom().<AcquireResult>item(new AcquireResult.NotFound(requested))
                        : acquisition.acquire(resolved.get(), holder, lease)));
    }

    /**
     * Fills in the configurator of an item page (a configurator or variables page names its own);
     * empty when the item does not exist.
     */
    public Uni<Optional<Resource>> resolve(Resource requested) {
        return storeFailures(items.resolve(requested));
    }

    /** An explicit unlock by the user, from any of their sockets. */
    public Uni<ReleaseResult> release(Resource requested, String userId, String socketId) {
        return storeFailures(items.resolve(requested)
                .flatMap(resolved -> resolved.isEmpty()
                        ? Uni.createFrom().<ReleaseResult>item(new ReleaseResult.NotHeld(requested))
                        : release(resolved.get(), userId, 0, ReleaseReason.UNLOCK, socketId)));
    }

    /** Releases exactly this grant (by its token), if it still exists: admin break-lock, deletes. */
    public Uni<ReleaseResult> releaseGrant(Lock grant, ReleaseReason reason, String exceptSocketId) {
        return storeFailures(release(grant.resource(), grant.ownerUserId(), grant.token(), reason, exceptSocketId));
    }

    /** The socket is gone: release what no other socket keeps, per configurator atomically. */
    public Uni<List<ReleasedLock>> releaseSocket(String socketId, ReleaseReason reason) {
        return storeFailures(socketLocks.releaseAll(socketId, reason));
    }

    /** The socket leaves its lines and take-over requests as if it went away; its locks stay. */
    public Uni<Void> leaveLines(String socketId) {
        return storeFailures(socketLocks.leaveLines(socketId));
    }

    /**
     * The socket's user is idle: release what the socket's lock requests up to {@code decidedAt} (see
     * {@link #lastRequest()}) gave it and no other socket keeps. A grant after the decision stays.
     */
    public Uni<List<ReleasedLock>> releaseIdle(String socketId, long decidedAt) {
        return storeFailures(socketLocks.releaseIdle(socketId, decidedAt));
    }

    /** The number of the latest lock request of this node: every later one has a larger number. */
    public long lastRequest() {
        return requests.last();
    }

    /**
     * The socket lives: renew the leases it keeps (and the user's configurator record).
     *
     * @param told what the socket's client was told it holds, checked against the store (docs/protocol.md §6)
     * @return the number renewed
     */
    public Uni<Integer> renewSocket(String socketId, String userId, ToldGrants told) {
        return storeFailures(socketLocks.renew(socketId, told).call(() -> users.renew(userId)));
    }

    /** A dropped socket waiting for its resume: as {@link #renewSocket}, its index left whole. */
    public Uni<Integer> renewDroppedSocket(String socketId, String userId) {
        return storeFailures(socketLocks.renewDropped(socketId).call(() -> users.renew(userId)));
    }

    /** Resume: the locks a dropped socket kept move to the new socket, same grants. */
    public Uni<MovedSocket> moveSocket(String oldSocketId, String newSocketId, String newNodeId) {
        return storeFailures(socketLocks.move(oldSocketId, newSocketId, newNodeId));
    }

    /** The live locks of a configurator (empty for one that does not exist). */
    public Uni<List<Lock>> locks(long configuratorId) {
        return storeFailures(scripts.list(configuratorId));
    }

    /**
     * Every lock the store keeps for a configurator, also those whose lease ran out and whose release
     * is still to come (and to be announced).
     */
    public Uni<List<Lock>> storedLocks(long configuratorId) {
        return storeFailures(scripts.listStored(configuratorId));
    }

    public Duration lease() {
        return lease;
    }

    /** Whether this node still keeps bookkeeping of the socket (for tests of its end). */
    boolean tracksSocket(String socketId) {
        return sockets.tracks(socketId);
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

    private static <T> Uni<T> storeFailures(Uni<T> work) {
        return work.onFailure().transform(LockStoreUnavailableException::of);
    }
}
