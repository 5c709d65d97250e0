package io.editlock.lock;

import io.editlock.lock.redis.AcquireReply;
import io.editlock.lock.redis.LockRequests;
import io.editlock.lock.redis.LockScripts;
import io.editlock.lock.redis.SocketIndex;
import io.editlock.lock.redis.UserConfigurators;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * The road of a lock request once its item is resolved: one script run decides, the socket is
 * indexed beside it, the decision is audited, and a grant sets off what follows it (the look at the
 * configurator when its lease ends, the user's one-configurator record). A failure anywhere gives the
 * request back, so that a requester told UNAVAILABLE holds nothing for it.
 */
@ApplicationScoped
class LockAcquisition {

    private final LockScripts scripts;
    private final SocketIndex sockets;
    private final UserConfigurators users;
    private final LockRequests requests;
    private final LockAudit audit;

    LockAcquisition(
            LockScripts scripts, SocketIndex sockets, UserConfigurators users, LockRequests requests, LockAudit audit) {
        this.scripts = scripts;
        this.sockets = sockets;
        this.users = users;
        this.requests = requests;
        this.audit = audit;
    }

    Uni<AcquireResult> acquire(Resource resource, Holder holder, Duration lease) {
        long request = requests.next();
        // The socket index is written beside the grant (once a removal of the same entry under way has
        // ended): a socket may be listed where it keeps nothing (harmless), and a grant it misses still
        // ends with its lease.
        return sockets.listedFor(
                        holder.socketId(),
                        resource.configuratorId(),
                        listed -> Uni.combine()
                                .all()
                                .unis(listed, scripts.acquire(resource, holder, lease, request))
                                .collectFailures()
                                .with((indexed, reply) -> reply))
                .invoke(reply -> audit.released(reply.released()))
                .flatMap(reply -> decided(resource, holder, reply))
                // Also when the script ran after all (a timeout) or a step after the grant failed.
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
        if (reply instanceof AcquireReply.LimitReached limit) {
            return Uni.createFrom().item(new AcquireResult.LimitReached(resource, limit.limit()));
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
}
