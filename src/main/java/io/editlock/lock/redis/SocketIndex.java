package io.editlock.lock.redis;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which configurators a socket may keep locks in: a set in Redis per socket (may list a few
 * configurators where it keeps nothing, never misses one), so that its end, idleness, renewal and
 * resume visit only those. It outlives the leases it points at; renewals keep both going.
 */
@ApplicationScoped
public class SocketIndex {

    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final String ttlMillis;
    /**
     * Which configurators each socket of this node is already listed under: the index only grows while
     * the socket lives (renewals keep its TTL), so a repeated lock in the same configurator need not
     * write it again — two of the six commands of a lock-and-unlock. Only while renewals keep it: an
     * idle socket is not renewed, so its entry goes with its idle release.
     */
    private final Map<String, Set<Long>> listed = new ConcurrentHashMap<>();

    public SocketIndex(PipelinedRedis redis, LockKeys keys, EditlockConfig config) {
        this.redis = redis;
        this.keys = keys;
        this.ttlMillis = String.valueOf(ttl(config).toMillis());
    }

    /** Indexes outlive the leases they point at: twice the lease. */
    static Duration ttl(EditlockConfig config) {
        return config.lease().ttl().multipliedBy(2);
    }

    /** Lists the socket under the configurator, unless this node already did. */
    public Uni<Void> add(String socketId, long configuratorId) {
        Set<Long> known = listed.computeIfAbsent(socketId, id -> ConcurrentHashMap.newKeySet());
        return known.contains(configuratorId)
                ? Uni.createFrom().voidItem()
                : write(socketId, List.of(configuratorId)).invoke(() -> known.add(configuratorId));
    }

    /** Lists the socket under every one of the configurators (a resumed socket takes over the old one's). */
    public Uni<Void> addAll(String socketId, List<Long> configuratorIds) {
        return write(socketId, configuratorIds);
    }

    /**
     * The configurators the socket is listed under. Those this node listed and the store lacks are
     * listed again: a write the store lost (its data, or a fail-over to a replica that had not caught
     * up) would otherwise hide the socket's next grants there from every renewal and release, for
     * {@link #add} trusts what this node listed.
     */
    public Uni<List<Long>> configurators(String socketId) {
        Set<Long> known = listed.getOrDefault(socketId, Set.of());
        return stored(socketId).flatMap(ids -> {
            List<Long> lost = known.stream().filter(id -> !ids.contains(id)).toList();
            if (lost.isEmpty()) {
                return Uni.createFrom().item(List.copyOf(ids));
            }
            ids.addAll(lost);
            return write(socketId, lost).replaceWith(List.copyOf(ids));
        });
    }

    /**
     * The configurators of a socket this node has just forgotten ({@link #forgetListed}): those of the
     * store and those this node had listed.
     */
    public Uni<List<Long>> configurators(String socketId, Set<Long> forgotten) {
        return stored(socketId).map(ids -> {
            ids.addAll(forgotten);
            return List.copyOf(ids);
        });
    }

    /** The socket lives: its index lives on. */
    public Uni<Void> renew(String socketId) {
        return redis.execute(Command.PEXPIRE, keys.socketConfigurators(socketId), ttlMillis)
                .replaceWithVoid();
    }

    /**
     * This node no longer knows what the socket is listed under: its next grant writes the index again
     * (nobody renews the index of an idle socket, so it runs out).
     */
    public Set<Long> forgetListed(String socketId) {
        Set<Long> known = listed.remove(socketId);
        return known == null ? Set.of() : known;
    }

    /** The socket is gone: drops its index. */
    public Uni<Void> remove(String socketId) {
        listed.remove(socketId);
        return redis.execute(Command.DEL, keys.socketConfigurators(socketId)).replaceWithVoid();
    }

    /** Whether this node still keeps bookkeeping of the socket. */
    public boolean tracks(String socketId) {
        return listed.containsKey(socketId);
    }

    private Uni<Set<Long>> stored(String socketId) {
        return redis.execute(Command.SMEMBERS, keys.socketConfigurators(socketId))
                .map(reply -> {
                    Set<Long> ids = new LinkedHashSet<>();
                    if (reply != null) {
                        reply.forEach(member -> ids.add(member.toLong()));
                    }
                    return ids;
                });
    }

    private Uni<Void> write(String socketId, List<Long> configuratorIds) {
        String index = keys.socketConfigurators(socketId);
        List<String> args = new ArrayList<>();
        args.add(index);
        configuratorIds.forEach(id -> args.add(String.valueOf(id)));
        return Uni.combine()
                .all()
                .unis(
                        redis.execute(Command.SADD, args.toArray(String[]::new)),
                        redis.execute(Command.PEXPIRE, index, ttlMillis))
                .collectFailures()
                .discardItems();
    }
}
