package io.editlock.catalog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.config.EditlockConfig;
import io.editlock.lock.Guard;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The entries of the pages: filters, dependencies and attribute values of items, variables of
 * configurators. Every write is one guarded script run (guard 'page' of the entry's item, or
 * 'variables'); field values arrive validated, as strings.
 */
@ApplicationScoped
public class EntryStore {

    private final PipelinedRedis redis;
    private final CatalogScripts scripts;
    private final CatalogIndex index;
    private final LockKeys keys;
    private final int maxEntries;

    public EntryStore(
            PipelinedRedis redis, CatalogScripts scripts, CatalogIndex index, LockKeys keys, EditlockConfig config) {
        this.redis = redis;
        this.scripts = scripts;
        this.index = index;
        this.keys = keys;
        this.maxEntries = config.limits().rest().entriesPerPage();
    }

    /**
     * @param guard of the page the entry goes on (its item's page, or the configurator's variables); a
     *     page that holds {@code editlock.limits.rest.entries-per-page} entries takes no more (invalid input)
     */
    public Uni<Entry> add(Guard guard, Entity entity, Map<String, String> fields) {
        return add(guard, entity, fields, null);
    }

    /** @param idempotency null without an Idempotency-Key; else a retry gets the entry the first attempt created */
    public Uni<Entry> add(Guard guard, Entity entity, Map<String, String> fields, Idempotency idempotency) {
        long c = guard.configuratorId();
        Entity owner = entity.onItemPage() ? Entity.ITEM : Entity.CONFIGURATOR;
        Object ownerId = entity.onItemPage() ? guard.itemId() : c;
        Uni<Long> nextId =
                idempotency == null ? index.nextId(entity) : Uni.createFrom().item(idempotency.id());
        return nextId.flatMap(id -> index.put(entity, id, new Location(c, entity.onItemPage() ? guard.itemId() : null))
                .chain(() -> scripts.addEntry(
                        guard, entity, id, json(fields), itemReference(entity, fields), maxEntries, idempotency))
                .call(reply -> index.removeIfGone(reply, entity, id))
                .map(reply -> CatalogRecords.entry(
                        entity, c, reply.body(guard, owner, ownerId).path("record")))
                .onFailure(ConfiguratorStore::refused)
                .call(() -> index.remove(entity, List.of(id))));
    }

    /**
     * The entry, if it and its item exist: a deleted item's entries stay in their hash a moment after
     * it (until {@link DeletedItems} has cleaned up), gone with it. One round trip: both reads go
     * together.
     */
    public Uni<Entry> find(Entity entity, long id) {
        return index.locate(entity, id).flatMap(where -> {
            if (where.isEmpty()) {
                return Uni.createFrom().failure(UnknownIdException.of(entity, id));
            }
            long c = where.get().configuratorId();
            Long item = where.get().itemId();
            Uni<Optional<String>> record = execute(
                            Command.HGET, keys.entries(c, entity.collection()), String.valueOf(id))
                    .map(found -> Optional.ofNullable(found).map(Response::toString));
            Uni<Boolean> itemExists = item == null
                    ? Uni.createFrom().item(true)
                    : execute(Command.HEXISTS, keys.items(c), String.valueOf(item))
                            .map(exists -> exists.toInteger() == 1);
            return Uni.combine().all().unis(record, itemExists).asTuple().map(found -> {
                if (found.getItem1().isEmpty() || !found.getItem2()) {
                    throw UnknownIdException.of(entity, id);
                }
                return CatalogRecords.entry(
                        entity, c, CatalogRecords.parse(found.getItem1().get()));
            });
        });
    }

    /** @param changes some of the entity's fields (at least one) */
    public Uni<Entry> update(Guard guard, Entity entity, long id, Map<String, String> changes) {
        return scripts.updateEntry(guard, entity, id, json(changes), itemReference(entity, changes))
                .map(reply -> CatalogRecords.entry(
                        entity,
                        guard.configuratorId(),
                        reply.body(guard, entity, id).path("record")));
    }

    public Uni<Void> delete(Guard guard, Entity entity, long id) {
        return scripts.deleteEntry(guard, entity, id)
                .map(reply -> reply.body(guard, entity, id))
                .call(() -> index.forgetDeleted(entity, List.of(id)))
                .replaceWithVoid();
    }

    /** The item these fields name (a dependency's target), if they name one. */
    private static ItemReference itemReference(Entity entity, Map<String, String> fields) {
        return entity.fields().stream()
                .filter(field -> field.type() == EntryField.Type.ITEM_ID && fields.containsKey(field.name()))
                .map(field -> new ItemReference(field.name(), Long.parseLong(fields.get(field.name()))))
                .findFirst()
                .orElse(null);
    }

    private static String json(Map<String, String> fields) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        fields.forEach(node::put);
        return node.toString();
    }

    private Uni<Response> execute(Command command, String... args) {
        return redis.execute(command, args).onFailure().transform(LockStoreUnavailableException::of);
    }
}
