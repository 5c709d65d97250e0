package io.editlock.lock.redis;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.LockAudit;
import io.editlock.lock.MovedSocket;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.ReleasedLock;
import io.editlock.lock.Resource;
import io.editlock.lock.ToldGrants;
import io.smallrye.mutiny.CompositeException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a socket keeps, in every configurator its {@link SocketIndex} lists, one script run per
 * configurator: released when it ends or its user is idle, renewed while it lives, moved on resume.
 */
@ApplicationScoped
public class SocketLocks {

    private final LockScripts scripts;
    private final SocketIndex index;
    private final LockAudit audit;
    private final LostGrants lostGrants;
    private final Duration lease;

    public SocketLocks(
            LockScripts scripts, SocketIndex index, LockAudit audit, LostGrants lostGrants, EditlockConfig config) {
        this.scripts = scripts;
        this.index = index;
        this.audit = audit;
        this.lostGrants = lostGrants;
        this.lease = config.lease().ttl();
    }

    /** The socket is gone: releases what no other socket keeps, per configurator atomically. */
    public Uni<List<ReleasedLock>> releaseAll(String socketId, ReleaseReason reason) {
        Set<Long> listed = index.forgetListed(socketId); // also when the store is unreachable: the socket is gone
        return release(socketId, listed, reason, -1)
                .flatMap(released -> index.remove(socketId).replaceWith(released));
    }

    /**
     * The socket leaves every line and take-over request it is in, and keeps its locks: sockets that go
     * together (their node stops) all leave first, so that a lock one of them releases next is handed
     * to none of the others.
     */
    public Uni<Void> leaveLines(String socketId) {
        return index.configurators(socketId)
                .flatMap(ids -> Multi.createFrom()
                        .iterable(ids)
                        .onItem()
                        .transformToUniAndMerge(id -> scripts.leaveLines(id, socketId))
                        .invoke(audit::released)
                        .collect()
                        .asList())
                .replaceWithVoid();
    }

    /** Releases what the socket's lock requests up to {@code decidedAt} gave it and no other socket keeps. */
    public Uni<List<ReleasedLock>> releaseIdle(String socketId, long decidedAt) {
        return release(socketId, index.forgetListed(socketId), ReleaseReason.IDLE, decidedAt);
    }

    /**
     * Renews the socket's leases and vouches for its places in lines, and takes the configurators where
     * it keeps nothing, and its client believes it holds nothing, off its index. Grants its client was
     * told of that the store no longer has, and grants it keeps that its client was not told of, are
     * judged by {@link LostGrants}; the latter, once judged strays, are no longer renewed.
     *
     * @return the number of locks renewed
     */
    public Uni<Integer> renew(String socketId, ToldGrants told) {
        return renew(socketId, told, true);
    }

    /**
     * Renews a dropped socket's leases and places, and leaves its index whole: a resume that was
     * answered UNAVAILABLE after its move ran all the same reads it again when retried, to find the
     * configurators whose locks it moved already (docs/protocol.md §5).
     */
    public Uni<Integer> renewDropped(String socketId) {
        return renew(socketId, ToldGrants.NONE, false);
    }

    /**
     * The configurators this node listed the socket under are renewed at once, beside the read of its
     * index, and the index adds only those this node does not know of. In a Redis Cluster the index lives
     * in a slot of its own: a shard that stalls (paused, cut off from this node, not yet failed over)
     * must cost the socket its renewals there, not its locks on every other shard.
     */
    private Uni<Integer> renew(String socketId, ToldGrants told, boolean takeOffEmpty) {
        return Uni.createFrom().deferred(() -> {
            long begun = lostGrants.renewalBegins();
            Set<Long> listedHere = index.listedHere(socketId);
            Uni<Integer> known = renewIn(listedHere, socketId, told, takeOffEmpty, begun);
            Uni<Integer> others = index.configurators(socketId)
                    .flatMap(ids -> renewIn(
                            ids.stream().filter(id -> !listedHere.contains(id)).toList(),
                            socketId,
                            told,
                            takeOffEmpty,
                            begun));
            return Uni.combine()
                    .all()
                    .unis(known, others)
                    .collectFailures()
                    .with(Integer::sum)
                    // Both failed: either cause says what the store did.
                    .onFailure(CompositeException.class)
                    .transform(Throwable::getCause)
                    .call(() -> index.renew(socketId));
        });
    }

    private Uni<Integer> renewIn(
            Collection<Long> configuratorIds, String socketId, ToldGrants told, boolean takeOffEmpty, long begun) {
        return Multi.createFrom()
                .iterable(configuratorIds)
                .onItem()
                .transformToUniAndMerge(id -> renewIn(id, socketId, told, takeOffEmpty, begun))
                .collect()
                .with(Collectors.summingInt(Integer::intValue));
    }

    private Uni<Integer> renewIn(
            long configuratorId, String socketId, ToldGrants told, boolean takeOffEmpty, long begun) {
        return Uni.createFrom().deferred(() -> {
            SocketIndex.Mark mark = index.mark(socketId); // before the script looks
            Map<Resource, Long> believed = told.in(configuratorId);
            Map<String, Long> strays = lostGrants.strays(configuratorId, socketId, told);
            return scripts.renewSocket(configuratorId, socketId, lease, believed, strays, told.checked())
                    .call(renewal -> lostGrants.judge(configuratorId, told, believed, renewal, begun))
                    // A grant believed held keeps the configurator listed until its end is told or found lost.
                    .call(renewal -> renewal.keeps() || !believed.isEmpty() || !takeOffEmpty
                            ? Uni.createFrom().voidItem()
                            : index.takeOff(mark, configuratorId))
                    .map(SocketRenewal::renewed);
        });
    }

    /** The locks the old socket kept, and its places in lines, move to the new socket, same grants. */
    public Uni<MovedSocket> move(String oldSocketId, String newSocketId, String newNodeId) {
        return index.configurators(oldSocketId)
                .flatMap(ids -> ids.isEmpty()
                        ? Uni.createFrom().item(MovedSocket.NOTHING)
                        : index.listedForResume(
                                newSocketId,
                                ids,
                                listed -> listed.chain(() -> Multi.createFrom()
                                        .iterable(ids)
                                        .onItem()
                                        .transformToUniAndMerge(id ->
                                                scripts.moveSocket(id, oldSocketId, newSocketId, newNodeId, lease))
                                        .collect()
                                        .with(Collectors.reducing(MovedSocket.NOTHING, MovedSocket::and)))))
                .flatMap(moved -> index.remove(oldSocketId).replaceWith(moved));
    }

    private Uni<List<ReleasedLock>> release(String socketId, Set<Long> listed, ReleaseReason reason, long upTo) {
        return index.configurators(socketId, listed)
                .flatMap(ids -> Multi.createFrom()
                        .iterable(ids)
                        .onItem()
                        .transformToUniAndMerge(id -> scripts.releaseSocket(id, socketId, reason, upTo))
                        .invoke(audit::released)
                        .collect()
                        .asList())
                .map(SocketLocks::flatten);
    }

    private static <T> List<T> flatten(List<List<T>> lists) {
        List<T> all = new ArrayList<>();
        lists.forEach(all::addAll);
        return all;
    }
}
