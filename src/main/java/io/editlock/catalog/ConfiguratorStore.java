package io.editlock.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.config.EditlockConfig;
import io.editlock.lock.Guard;
import io.editlock.lock.ItemOwners;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The configurators and their item trees, in Redis next to their locks (same hash tag), so that one
 * script run can check a guard against the locks and write the data. Every guarded write takes a
 * {@link Guard} and is one script run; refusals surface as exceptions (unknown id, invalid input,
 * locked, stale token), a store that cannot be reached as {@link LockStoreUnavailableException}.
 */
@ApplicationScoped
public class ConfiguratorStore implements ItemOwners {

    /** Record reads one list request keeps in flight, so that one request cannot take the whole pool. */
    private static final int READS_IN_FLIGHT = 8;

    private final PipelinedRedis redis;
    private final CatalogScripts scripts;
    private final CatalogIndex index;
    private final DeletedConfigurators deleted;
    private final DeletedItems deletedItems;
    private final LockKeys keys;
    private final int maxItems;

    public ConfiguratorStore(
            PipelinedRedis redis,
            CatalogScripts scripts,
            CatalogIndex index,
            DeletedConfigurators deleted,
            DeletedItems deletedItems,
            LockKeys keys,
            EditlockConfig config) {
        this.redis = redis;
        this.scripts = scripts;
        this.index = index;
        this.deleted = deleted;
        this.deletedItems = deletedItems;
        this.keys = keys;
        this.maxItems = config.limits().rest().itemsPerConfigurator();
    }

    /** A configurator without a creator: only an admin may delete it. */
    public Uni<Configurator> createConfigurator(String name) {
        return createConfigurator(name, (String) null);
    }

    /** @param createdBy the creator's user id, who may delete it (besides an admin) */
    public Uni<Configurator> createConfigurator(String name, String createdBy) {
        return createConfigurator(name, createdBy, null);
    }

    /**
     * @param createdBy the creator's user id, who may delete it (besides an admin)
     * @param idempotency null without an Idempotency-Key; else the configurator gets its reserved id,
     *                    and a retry gets the configurator the first attempt created
     */
    public Uni<Configurator> createConfigurator(String name, String createdBy, Idempotency idempotency) {
        Uni<Long> nextId = idempotency == null
                ? index.nextId(Entity.CONFIGURATOR)
                : Uni.createFrom().item(idempotency.id());
        return nextId.flatMap(id -> {
            Configurator configurator =
                    new Configurator(id, name, Instant.now().truncatedTo(ChronoUnit.MILLIS), createdBy);
            return index.put(Entity.CONFIGURATOR, id, new Location(id, null))
                    .chain(() -> scripts.createConfigurator(
                            id, name, configurator.createdAt().toString(), createdBy, idempotency))
                    .call(reply -> index.removeIfGone(reply, Entity.CONFIGURATOR, id))
                    .map(reply -> {
                        JsonNode written = reply.body(Guard.none(id), Entity.CONFIGURATOR, id);
                        return written.has("record")
                                ? CatalogRecords.configurator(written.path("record"))
                                : configurator;
                    });
        });
    }

    /**
     * One page of the configurators, by id: those with an id above {@code afterId}, at most
     * {@code limit}. One read of the id index, of that page, and at most {@code limit} record reads,
     * however many configurators there are.
     */
    public Uni<ConfiguratorPage> configurators(long afterId, int limit) {
        return index.configuratorIdsAfter(afterId, limit + 1).flatMap(next -> {
            List<Long> page = next.subList(0, Math.min(limit, next.size()));
            boolean more = next.size() > limit;
            return Multi.createFrom()
                    .iterable(page)
                    .onItem()
                    .transformToUni(this::find)
                    .merge(READS_IN_FLIGHT)
                    .collect()
                    .asList()
                    .map(found -> new ConfiguratorPage(
                            found.stream()
                                    .flatMap(Optional::stream)
                                    .sorted(Comparator.comparingLong(Configurator::id))
                                    .toList(),
                            more ? Optional.of(page.get(page.size() - 1)) : Optional.empty()));
        });
    }

    public Uni<Configurator> configurator(long id) {
        return find(id).map(found -> found.orElseThrow(() -> UnknownIdException.of(Entity.CONFIGURATOR, id)));
    }

    /** The whole configurator: item tree with every page's entries, and the variables; one consistent read. */
    public Uni<ConfiguratorTree> tree(long id) {
        return scripts.read(id).map(reply -> {
            if (reply.size() == 0) {
                throw UnknownIdException.of(Entity.CONFIGURATOR, id);
            }
            Response head = reply.get(0);
            Configurator configurator = new Configurator(
                    id,
                    head.get(1).toString(),
                    Instant.parse(head.get(2).toString()),
                    head.size() > 3 && head.get(3) != null ? head.get(3).toString() : null);
            List<Item> items = new ArrayList<>();
            reply.get(1).forEach(record -> items.add(CatalogRecords.item(id, CatalogRecords.parse(record.toString()))));
            List<Entry> entries = new ArrayList<>();
            List<Entity> kinds = List.of(Entity.FILTER, Entity.DEPENDENCY, Entity.ATTRIBUTE_VALUE, Entity.VARIABLE);
            for (int i = 0; i < kinds.size(); i++) {
                Entity kind = kinds.get(i);
                reply.get(2 + i)
                        .forEach(record ->
                                entries.add(CatalogRecords.entry(kind, id, CatalogRecords.parse(record.toString()))));
            }
            return CatalogRecords.tree(configurator, items, entries);
        });
    }

    public Uni<Configurator> renameConfigurator(Guard guard, String name) {
        long id = guard.configuratorId();
        return scripts.renameConfigurator(guard, name)
                .map(reply -> CatalogRecords.configurator(
                        reply.body(guard, Entity.CONFIGURATOR, id).path("record")));
    }

    /**
     * Deletes the configurator with everything in it; the deleter's locks in it go with reason
     * deleted. Only its creator may, or anyone when {@code mayDeleteAny} (an admin): else
     * {@link NotPermittedException}. It is gone at once, in one short script run whatever its size;
     * the ids of its items and entries leave the global indexes in the background
     * ({@link DeletedConfigurators}).
     */
    public Uni<Void> deleteConfigurator(Guard guard, boolean mayDeleteAny) {
        long id = guard.configuratorId();
        return deleted.asked(id)
                .flatMap(asked -> scripts.deleteConfigurator(guard, mayDeleteAny)
                        // An answer other than OK: the script ran and set nothing aside. A store that did
                        // not answer may have run it, which the sweep finds out.
                        .call(reply -> reply instanceof WriteReply.Written
                                ? Uni.createFrom().voidItem()
                                : deleted.refused(asked))
                        .map(reply -> reply.body(guard, Entity.CONFIGURATOR, id))
                        .call(() -> index.forgetDeleted(Entity.CONFIGURATOR, List.of(id)))
                        .invoke(() -> deleted.cleanUpSoon(asked)))
                .replaceWithVoid();
    }

    /**
     * An item added without a guard (for fixtures and internal use).
     *
     * @return the item, or empty when the configurator (or the parent item in it) does not exist
     */
    public Uni<Optional<Item>> addItem(long configuratorId, String name, Long parentItemId) {
        return addItem(Guard.none(configuratorId), name, parentItemId, 0, null)
                .map(Optional::of)
                .onFailure(failure -> failure instanceof UnknownIdException || failure instanceof InvalidInputException)
                .recoverWithItem(Optional.empty());
    }

    /**
     * @param guard of the configurator the item goes into; a configurator that holds
     *     {@code editlock.limits.rest.items-per-configurator} items takes no more (invalid input)
     */
    public Uni<Item> addItem(Guard guard, String name, Long parentItemId) {
        return addItem(guard, name, parentItemId, null);
    }

    /** @param idempotency null without an Idempotency-Key; else a retry gets the item the first attempt created */
    public Uni<Item> addItem(Guard guard, String name, Long parentItemId, Idempotency idempotency) {
        return addItem(guard, name, parentItemId, maxItems, idempotency);
    }

    private Uni<Item> addItem(Guard guard, String name, Long parentItemId, int cap, Idempotency idempotency) {
        long c = guard.configuratorId();
        Uni<Long> nextId = idempotency == null
                ? index.nextId(Entity.ITEM)
                : Uni.createFrom().item(idempotency.id());
        return nextId.flatMap(id -> index.put(Entity.ITEM, id, new Location(c, id))
                .chain(() -> scripts.addItem(guard, id, name, parentItemId, cap, idempotency))
                .call(reply -> index.removeIfGone(reply, Entity.ITEM, id))
                .map(reply -> CatalogRecords.item(
                        c, reply.body(guard, Entity.CONFIGURATOR, c).path("record")))
                .onFailure(ConfiguratorStore::refused)
                .call(() -> index.remove(Entity.ITEM, List.of(id))));
    }

    public Uni<Item> item(long itemId) {
        return index.locate(Entity.ITEM, itemId)
                .flatMap(where -> where.isEmpty()
                        ? Uni.createFrom().failure(UnknownIdException.of(Entity.ITEM, itemId))
                        : redis.execute(Command.HGET, keys.items(where.get().configuratorId()), String.valueOf(itemId))
                                .onFailure()
                                .transform(LockStoreUnavailableException::of)
                                .map(record -> {
                                    if (record == null) {
                                        throw UnknownIdException.of(Entity.ITEM, itemId);
                                    }
                                    return CatalogRecords.item(
                                            where.get().configuratorId(), CatalogRecords.parse(record.toString()));
                                }));
    }

    /** @param guard of the item */
    public Uni<Item> renameItem(Guard guard, String name) {
        return scripts.renameItem(guard, name)
                .map(reply -> CatalogRecords.item(
                        guard.configuratorId(),
                        reply.body(guard, Entity.ITEM, guard.itemId()).path("record")));
    }

    /**
     * Deletes the item with its sub-tree; the deleter's page locks there go with reason deleted. It is
     * gone at once with its entries, in a script run whose cost grows with the sub-tree's items, not
     * their entries; the entries' records and every id in the global indexes go in the background
     * ({@link DeletedItems}).
     */
    public Uni<Void> deleteItem(Guard guard) {
        return deletedItems
                .asked(guard.configuratorId())
                .flatMap(asked -> scripts.deleteItem(guard)
                        // As for a configurator: only OK set anything aside.
                        .call(reply -> reply instanceof WriteReply.Written
                                ? Uni.createFrom().voidItem()
                                : deletedItems.refused(asked))
                        .map(reply -> reply.body(guard, Entity.ITEM, guard.itemId()))
                        .invoke(() -> deletedItems.cleanUpSoon(asked)))
                .replaceWithVoid();
    }

    public Uni<Boolean> configuratorExists(long configuratorId) {
        return redis.execute(Command.EXISTS, keys.configurator(configuratorId))
                .onFailure()
                .transform(LockStoreUnavailableException::of)
                .map(reply -> reply.toInteger() == 1);
    }

    /** Which configurator holds the item: O(1), one HGET. Items never move between configurators. */
    @Override
    public Uni<Optional<Long>> configuratorOfItem(long itemId) {
        return index.locate(Entity.ITEM, itemId).map(where -> where.map(Location::configuratorId));
    }

    private Uni<Optional<Configurator>> find(long id) {
        return redis.execute(Command.HMGET, keys.configurator(id), "name", "createdAt", "createdBy")
                .onFailure()
                .transform(LockStoreUnavailableException::of)
                .map(reply -> reply.get(0) == null
                        ? Optional.empty()
                        : Optional.of(new Configurator(
                                id,
                                reply.get(0).toString(),
                                Instant.parse(reply.get(1).toString()),
                                reply.get(2) == null ? null : reply.get(2).toString())));
    }

    /** A write that did not happen for a reason of its own (not a store failure): its index entry goes. */
    static boolean refused(Throwable failure) {
        // A key reused for another request names an id the first request may have created.
        return !(failure instanceof LockStoreUnavailableException)
                && !(failure instanceof IdempotencyKeyReusedException);
    }
}
