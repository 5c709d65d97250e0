package io.editlock.catalog;

import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Ids and the global indexes: which configurators exist (for listing, by id), and where every item and
 * entry is (one HGET resolves any id to its configurator and item). The indexes live outside the
 * configurators' hash slots, so they are written around the scripts, never inside: an index entry is
 * written before its entity and removed after it, so it may point at nothing for a moment (every
 * script checks existence again) but an entity is never unreachable by its id.
 */
@ApplicationScoped
public class CatalogIndex {

    /** The widest step over ids in use (2^40, after 41 looks): past it, the counter is not to be trusted. */
    static final long MOST_STEP = 1L << 40;

    private static final Logger LOG = Logger.getLogger(CatalogIndex.class);

    private final PipelinedRedis redis;
    private final LockKeys keys;

    public CatalogIndex(PipelinedRedis redis, LockKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /**
     * A new id of that kind: the next of its counter that is not in use. A counter that went back below
     * ids in use (the store lost part of its data: a Redis Cluster shard that failed over to a replica
     * behind, while the shards of the records kept theirs) would hand out an id that exists, and its
     * create would overwrite that record. Ids in use are skipped, with a warning, in steps that double
     * each time, so that a counter far behind costs a create a few round trips; every id handed out is
     * one that was looked at.
     */
    public Uni<Long> nextId(Entity entity) {
        return nextId(entity, 1);
    }

    private Uni<Long> nextId(Entity entity, long step) {
        String counter = keys.sequence(entity.wireName());
        Uni<Response> next =
                step == 1 ? execute(Command.INCR, counter) : execute(Command.INCRBY, counter, String.valueOf(step));
        return next.map(Response::toLong)
                .flatMap(id -> inUse(entity, id).flatMap(used -> {
                    if (!used) {
                        return Uni.createFrom().item(id);
                    }
                    if (step == 1) {
                        LOG.warnf(
                                "%s id %d is in use, yet its counter %s handed it out again: the store lost part of its"
                                        + " data; skipping the ids in use (docs/operations.md)",
                                entity.wireName(), id, counter);
                    }
                    if (step >= MOST_STEP) {
                        return Uni.createFrom()
                                .failure(new LockStoreUnavailableException(
                                        "the " + entity.wireName() + " id counter hands out ids in use", null));
                    }
                    return nextId(entity, step * 2);
                }));
    }

    /**
     * Whether the id is taken: in the kind's index, or for a configurator also by one that exists, or
     * was deleted and still waits for its cleanup (its id has already left the list).
     */
    private Uni<Boolean> inUse(Entity entity, long id) {
        String member = String.valueOf(id);
        return switch (entity) {
            case CONFIGURATOR -> {
                List<String> own = List.of(keys.configurator(id), keys.deletedConfigurator(id));
                yield Uni.combine()
                        .all()
                        .unis(
                                execute(Command.ZSCORE, keys.configuratorIndex(), member),
                                execute(Command.EXISTS, own.toArray(String[]::new)))
                        .with((listed, existing) -> listed != null || existing.toInteger() > 0);
            }
            case ITEM -> execute(Command.HEXISTS, keys.itemIndex(), member).map(Response::toBoolean);
            default ->
                execute(Command.HEXISTS, keys.entryIndex(entity.wireName()), member)
                        .map(Response::toBoolean);
        };
    }

    public Uni<Void> put(Entity entity, long id, Location where) {
        return switch (entity) {
            case CONFIGURATOR ->
                execute(Command.ZADD, keys.configuratorIndex(), String.valueOf(id), String.valueOf(id))
                        .replaceWithVoid();
            case ITEM ->
                execute(Command.HSET, keys.itemIndex(), String.valueOf(id), String.valueOf(where.configuratorId()))
                        .replaceWithVoid();
            default ->
                execute(Command.HSET, keys.entryIndex(entity.wireName()), String.valueOf(id), encode(where))
                        .replaceWithVoid();
        };
    }

    public Uni<Void> remove(Entity entity, Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<String> args = new ArrayList<>();
        args.add(
                switch (entity) {
                    case CONFIGURATOR -> keys.configuratorIndex();
                    case ITEM -> keys.itemIndex();
                    default -> keys.entryIndex(entity.wireName());
                });
        ids.forEach(id -> args.add(String.valueOf(id)));
        return execute(entity == Entity.CONFIGURATOR ? Command.ZREM : Command.HDEL, args.toArray(String[]::new))
                .replaceWithVoid();
    }

    /**
     * The index entries of what a delete took along. The delete is written and announced by then, so a
     * failure here is logged rather than answered: its writer must not hear 503, "nothing was written".
     * An entry left behind names a record that is gone, which every lookup answers as an unknown id.
     */
    public Uni<Void> forgetDeleted(Entity entity, Collection<Long> ids) {
        return remove(entity, ids).onFailure().recoverWithUni(failure -> {
            LOG.warnf(
                    "%d index entries of deleted %s records stay behind (%s); they name nothing",
                    ids.size(), entity.wireName(), failure.getMessage());
            return Uni.createFrom().voidItem();
        });
    }

    /**
     * A create writes its index entry before its script, a retry under its Idempotency-Key too; a
     * retry whose entity was deleted since takes the entry away again, as the delete did.
     */
    Uni<Void> removeIfGone(WriteReply reply, Entity entity, long id) {
        return reply.gone() ? remove(entity, List.of(id)) : Uni.createFrom().voidItem();
    }

    /**
     * Where an id is, in O(1). A configurator id is its own location (whether it exists is checked by
     * the script that uses it). Empty: no such item or entry.
     */
    public Uni<Optional<Location>> locate(Entity entity, long id) {
        return switch (entity) {
            case CONFIGURATOR -> Uni.createFrom().item(Optional.of(new Location(id, null)));
            case ITEM ->
                execute(Command.HGET, keys.itemIndex(), String.valueOf(id))
                        .map(reply -> Optional.ofNullable(reply).map(c -> new Location(c.toLong(), id)));
            default ->
                execute(Command.HGET, keys.entryIndex(entity.wireName()), String.valueOf(id))
                        .map(reply -> Optional.ofNullable(reply).map(where -> decode(where.toString())));
        };
    }

    /** The ids of the configurators after {@code afterId}, in order, at most {@code count}. */
    public Uni<List<Long>> configuratorIdsAfter(long afterId, int count) {
        return execute(
                        Command.ZRANGEBYSCORE,
                        keys.configuratorIndex(),
                        "(" + afterId,
                        "+inf",
                        "LIMIT",
                        "0",
                        String.valueOf(count))
                .map(reply -> {
                    List<Long> ids = new ArrayList<>();
                    reply.forEach(member -> ids.add(member.toLong()));
                    return ids;
                });
    }

    private Uni<Response> execute(Command command, String... args) {
        return redis.execute(command, args).onFailure().transform(LockStoreUnavailableException::of);
    }

    private static String encode(Location where) {
        return where.itemId() == null
                ? String.valueOf(where.configuratorId())
                : where.configuratorId() + ":" + where.itemId();
    }

    private static Location decode(String where) {
        int colon = where.indexOf(':');
        return colon < 0
                ? new Location(Long.parseLong(where), null)
                : new Location(Long.parseLong(where.substring(0, colon)), Long.parseLong(where.substring(colon + 1)));
    }
}
