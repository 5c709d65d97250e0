package io.editlock.lock.redis;

import static io.editlock.redis.Scripts.LIST_RESUMED_SOCKET;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.ScriptExecutor;
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
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Which configurators a socket may keep something in (locks, places in lines, take-over requests): a
 * set in Redis per socket (may list a few configurators where it keeps nothing, never misses one), so
 * that its end, idleness, renewal and resume visit only those. It outlives the leases it points at;
 * renewals keep both going, and take off the configurators where a renewal found nothing of the
 * socket, so that a long-lived socket costs its renewals what it keeps, not what it ever touched.
 */
@ApplicationScoped
public class SocketIndex {

    private static final Logger LOG = Logger.getLogger(SocketIndex.class);

    private final PipelinedRedis redis;
    private final ScriptExecutor scripts;
    private final LockKeys keys;
    private final String ttlMillis;
    /**
     * What this node knows of each of its sockets' index: a repeated request in the same configurator
     * need not write it again (two of the six commands of a lock-and-unlock), and a renewal must not
     * take off a configurator where one of the socket's requests runs. Only while renewals keep the
     * index: an idle socket is not renewed, so its entry goes with its idle release.
     */
    private final Map<String, ListedConfigurators> listings = new ConcurrentHashMap<>();

    public SocketIndex(PipelinedRedis redis, ScriptExecutor scripts, LockKeys keys, EditlockConfig config) {
        this.redis = redis;
        this.scripts = scripts;
        this.keys = keys;
        this.ttlMillis = String.valueOf(ttl(config).toMillis());
    }

    /** Indexes outlive the leases they point at: twice the lease. */
    static Duration ttl(EditlockConfig config) {
        return config.lease().ttl().multipliedBy(2);
    }

    /**
     * Runs a request of the socket that may leave something of it in the configurator, with the socket
     * listed under it: {@code work} is given the listing (done at once when this node already listed it)
     * to run beside or before its script, and no renewal takes the configurator off until the work has
     * ended.
     */
    public <T> Uni<T> listedFor(String socketId, long configuratorId, Function<Uni<Void>, Uni<T>> work) {
        return listedFor(socketId, List.of(configuratorId), work, this::write);
    }

    /**
     * {@link #listedFor(String, long, Function)} for a resumed socket, under the configurators of the old
     * one; written also when Redis is full, for a resume keeps what is held (docs/operations.md).
     */
    public <T> Uni<T> listedForResume(String socketId, List<Long> configuratorIds, Function<Uni<Void>, Uni<T>> work) {
        return listedFor(socketId, configuratorIds, work, this::writeEvenWhenFull);
    }

    private <T> Uni<T> listedFor(
            String socketId,
            List<Long> configuratorIds,
            Function<Uni<Void>, Uni<T>> work,
            BiFunction<String, List<Long>, Uni<Void>> writer) {
        return Uni.createFrom().deferred(() -> {
            ListedConfigurators listing = listings.computeIfAbsent(socketId, id -> new ListedConfigurators());
            List<Long> toWrite = new ArrayList<>();
            List<Uni<Void>> removals = new ArrayList<>();
            for (long id : configuratorIds) {
                ListedConfigurators.Begun begun = listing.begin(id);
                if (begun.write()) {
                    toWrite.add(id);
                }
                if (begun.removal() != null) {
                    removals.add(begun.removal().onFailure().recoverWithNull());
                }
            }
            Uni<Void> afterRemovals = removals.isEmpty()
                    ? Uni.createFrom().voidItem()
                    : Uni.join().all(removals).andCollectFailures().replaceWithVoid();
            Uni<Void> listed = toWrite.isEmpty()
                    ? afterRemovals
                    : afterRemovals
                            .chain(() -> writer.apply(socketId, toWrite))
                            .invoke(() -> toWrite.forEach(listing::written));
            return work.apply(listed).onTermination().invoke(() -> configuratorIds.forEach(listing::end));
        });
    }

    /**
     * The configurators the socket is listed under. Those this node listed and the store lacks are
     * listed again: a write the store lost (its data, or a fail-over to a replica that had not caught
     * up, or a removal that landed after the timeout it was given up at) would otherwise hide the
     * socket's next grants there from every renewal and release, for {@link #listedFor} trusts what
     * this node listed.
     */
    public Uni<List<Long>> configurators(String socketId) {
        return stored(socketId).flatMap(ids -> {
            // Read with the reply, not before: a renewal that runs beside this read may have taken a
            // configurator off meanwhile (off this node's list first, then off the store's), and listing
            // it again here would undo that.
            Set<Long> known = listedHere(socketId);
            List<Long> lost = known.stream().filter(id -> !ids.contains(id)).toList();
            if (lost.isEmpty()) {
                return Uni.createFrom().item(List.copyOf(ids));
            }
            ids.addAll(lost);
            return write(socketId, lost).replaceWith(List.copyOf(ids));
        });
    }

    /** The configurators this node listed the socket under (none when it keeps no bookkeeping of it). */
    public Set<Long> listedHere(String socketId) {
        ListedConfigurators listing = listings.get(socketId);
        return listing == null ? Set.of() : listing.written();
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

    /**
     * Where the socket's requests stand, taken just before a renewal looks at one of its configurators;
     * null when this node keeps no bookkeeping of the socket (then nothing is taken off).
     */
    Mark mark(String socketId) {
        ListedConfigurators listing = listings.get(socketId);
        return listing == null ? null : new Mark(socketId, listing, listing.mark());
    }

    /** See {@link #mark}. */
    record Mark(String socketId, ListedConfigurators listing, long requests) {}

    /**
     * A renewal found nothing of the socket in the configurator: it comes off the socket's index, unless
     * a request of the socket there began since the mark or still runs. A removal that fails leaves the
     * configurator listed in the store: the next renewal finds nothing there again and tries again.
     */
    Uni<Void> takeOff(Mark mark, long configuratorId) {
        if (mark == null || listings.get(mark.socketId()) != mark.listing()) {
            return Uni.createFrom().voidItem();
        }
        Uni<Void> removal = mark.listing()
                .takeOff(
                        configuratorId,
                        mark.requests(),
                        () -> redis.execute(
                                        Command.SREM,
                                        keys.socketConfigurators(mark.socketId()),
                                        String.valueOf(configuratorId))
                                .replaceWithVoid());
        if (removal == null) {
            return Uni.createFrom().voidItem();
        }
        return removal.onFailure().recoverWithItem(failure -> {
            LOG.debugf(
                    "configurator %d not taken off the index of socket %s: %s",
                    configuratorId, mark.socketId(), failure.getMessage());
            return null;
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
        ListedConfigurators known = listings.remove(socketId);
        return known == null ? Set.of() : known.all();
    }

    /** The socket is gone: drops its index. */
    public Uni<Void> remove(String socketId) {
        listings.remove(socketId);
        return redis.execute(Command.DEL, keys.socketConfigurators(socketId)).replaceWithVoid();
    }

    /** Whether this node still keeps bookkeeping of the socket. */
    public boolean tracks(String socketId) {
        return listings.containsKey(socketId);
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

    private Uni<Void> writeEvenWhenFull(String socketId, List<Long> configuratorIds) {
        List<String> args = new ArrayList<>();
        args.add(ttlMillis);
        configuratorIds.forEach(id -> args.add(String.valueOf(id)));
        return scripts.run(LIST_RESUMED_SOCKET, List.of(keys.socketConfigurators(socketId)), args)
                .replaceWithVoid();
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
