package io.editlock.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.config.EditlockConfig;
import io.editlock.lock.Guard;
import io.editlock.lock.LockAudit;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.lock.redis.LockRecords;
import io.editlock.redis.LockKeys;
import io.editlock.redis.LuaScript;
import io.editlock.redis.ScriptExecutor;
import io.editlock.redis.ScriptJson;
import io.editlock.redis.Scripts;
import io.editlock.redis.StoreClock;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Typed calls of the catalog's write scripts in {@code src/main/resources/lua/}: every guarded write
 * is one script run that checks its guard and then writes (and announces). Each method names the
 * keys as the script calls them. Replies are facts, typed as {@link WriteReply}, which also says what
 * they mean. Any failure to run a script is a {@link LockStoreUnavailableException}.
 */
@ApplicationScoped
public class CatalogScripts {

    static final LuaScript CREATE_CONFIGURATOR = Scripts.CREATE_CONFIGURATOR;
    static final LuaScript RENAME_CONFIGURATOR = Scripts.RENAME_CONFIGURATOR;
    static final LuaScript DELETE_CONFIGURATOR = Scripts.DELETE_CONFIGURATOR;
    static final LuaScript ADD_ITEM = Scripts.ADD_ITEM;
    static final LuaScript RENAME_ITEM = Scripts.RENAME_ITEM;
    static final LuaScript DELETE_ITEM = Scripts.DELETE_ITEM;
    static final LuaScript ADD_ENTRY = Scripts.ADD_ENTRY;
    static final LuaScript UPDATE_ENTRY = Scripts.UPDATE_ENTRY;
    static final LuaScript DELETE_ENTRY = Scripts.DELETE_ENTRY;
    static final LuaScript READ_CONFIGURATOR = Scripts.READ_CONFIGURATOR;

    private final ScriptExecutor executor;
    private final LockKeys keys;
    private final Duration lease;
    private final StoreClock clock;
    private final LockAudit audit;

    @Inject
    public CatalogScripts(
            ScriptExecutor executor, LockKeys keys, EditlockConfig config, StoreClock clock, LockAudit audit) {
        this(executor, keys, config.lease().ttl(), clock, audit);
    }

    /** @param lease of the grants a delete hands to whom waits for what it frees */
    public CatalogScripts(ScriptExecutor executor, LockKeys keys, Duration lease, StoreClock clock, LockAudit audit) {
        this.executor = executor;
        this.keys = keys;
        this.lease = lease;
        this.clock = clock;
        this.audit = audit;
    }

    /** @param createdBy null when the server makes it itself */
    public Uni<WriteReply> createConfigurator(long c, String name, String createdAt, String createdBy) {
        return createConfigurator(c, name, createdAt, createdBy, null);
    }

    /** @param idempotency null without an Idempotency-Key */
    public Uni<WriteReply> createConfigurator(
            long c, String name, String createdAt, String createdBy, Idempotency idempotency) {
        List<String> k = List.of(keys.configurator(c)); // configurator
        return write(
                CREATE_CONFIGURATOR,
                withRecord(k, c, idempotency),
                withRecord(
                        List.of(
                                id(c),
                                name,
                                createdAt,
                                keys.contentEventsChannel(),
                                createdBy == null ? "" : createdBy,
                                String.valueOf(clock.lastMomentToRun())),
                        idempotency));
    }

    public Uni<WriteReply> renameConfigurator(Guard guard, String name) {
        long c = guard.configuratorId();
        List<String> k = List.of(keys.configurator(c), keys.locks(c)); // configurator, locks
        return write(RENAME_CONFIGURATOR, k, List.of(guardJson(guard), id(c), name, keys.contentEventsChannel()));
    }

    /** @param mayDeleteAny an admin's delete; anyone else may delete only what they created */
    public Uni<WriteReply> deleteConfigurator(Guard guard, boolean mayDeleteAny) {
        long c = guard.configuratorId();
        List<String> k = List.of(
                keys.configurator(c), // configurator
                keys.locks(c), // locks
                keys.items(c), // items
                keys.children(c), // children
                keys.itemEntries(c), // itemEntries
                keys.entries(c, Entity.FILTER.collection()), // filters
                keys.entries(c, Entity.DEPENDENCY.collection()), // dependencies
                keys.entries(c, Entity.ATTRIBUTE_VALUE.collection()), // attributeValues
                keys.entries(c, Entity.VARIABLE.collection())); // variables
        List<String> withWaiting = new ArrayList<>(keys.withWaiting(k, c));
        DeletedConfigurators.SET_ASIDE.forEach(
                entity -> withWaiting.add(keys.deletedRecords(c, entity.collection()))); // where each goes aside
        withWaiting.add(keys.deletedConfigurator(c)); // deleted, not yet cleaned up
        return releasingWrite(
                DELETE_CONFIGURATOR,
                withWaiting,
                keys.withWaitingArgs(
                        List.of(
                                guardJson(guard),
                                id(c),
                                keys.lockEventsChannel(),
                                keys.contentEventsChannel(),
                                mayDeleteAny ? "1" : "0"),
                        lease));
    }

    /**
     * @param parentItemId null for a top-level item; @param maxItems the configurator's cap, 0 for none;
     * @param idempotency null without an Idempotency-Key
     */
    public Uni<WriteReply> addItem(
            Guard guard, long itemId, String name, Long parentItemId, int maxItems, Idempotency idempotency) {
        long c = guard.configuratorId();
        List<String> k = List.of(
                keys.configurator(c),
                keys.locks(c),
                keys.items(c),
                keys.children(c)); // configurator, locks, items, children
        return write(
                ADD_ITEM,
                withRecord(k, c, idempotency),
                withRecord(
                        List.of(
                                guardJson(guard),
                                id(c),
                                id(itemId),
                                name,
                                parentItemId == null ? "" : id(parentItemId),
                                keys.contentEventsChannel(),
                                String.valueOf(maxItems)),
                        idempotency));
    }

    public Uni<WriteReply> renameItem(Guard guard, String name) {
        long c = guard.configuratorId();
        List<String> k = List.of(keys.locks(c), keys.items(c)); // locks, items
        return write(
                RENAME_ITEM,
                k,
                List.of(guardJson(guard), id(c), id(guard.itemId()), name, keys.contentEventsChannel()));
    }

    public Uni<WriteReply> deleteItem(Guard guard) {
        long c = guard.configuratorId();
        List<String> k = List.of(
                keys.locks(c), // locks
                keys.items(c), // items
                keys.children(c)); // children
        List<String> withWaiting = new ArrayList<>(keys.withWaiting(k, c));
        withWaiting.add(keys.deletedSubtrees(c)); // where the sub-tree's item ids go for the cleanup
        return releasingWrite(
                DELETE_ITEM,
                withWaiting,
                keys.withWaitingArgs(
                        List.of(
                                guardJson(guard),
                                id(c),
                                id(guard.itemId()),
                                keys.lockEventsChannel(),
                                keys.contentEventsChannel()),
                        lease));
    }

    /**
     * @param fields the entry's own fields as JSON; @param reference null or the item the entry names;
     * @param maxEntries the page's cap, 0 for none; @param idempotency null without an Idempotency-Key
     */
    public Uni<WriteReply> addEntry(
            Guard guard,
            Entity entity,
            long entryId,
            String fields,
            ItemReference reference,
            int maxEntries,
            Idempotency idempotency) {
        long c = guard.configuratorId();
        List<String> k = List.of(
                keys.configurator(c),
                keys.locks(c),
                keys.items(c), // configurator, locks, items
                keys.entries(c, entity.collection()),
                keys.itemEntries(c)); // entries, itemEntries
        return write(
                ADD_ENTRY,
                withRecord(k, c, idempotency),
                withRecord(
                        List.of(
                                guardJson(guard),
                                id(c),
                                entity.wireName(),
                                id(entryId),
                                entity.onItemPage() ? id(guard.itemId()) : "",
                                entity.onItemPage() ? entity.page().wireName() : "",
                                fields,
                                reference == null ? "" : id(reference.itemId()),
                                keys.contentEventsChannel(),
                                String.valueOf(maxEntries)),
                        idempotency));
    }

    /** The key's record after a create script's keys (idempotency_lib.lua). */
    private List<String> withRecord(List<String> k, long c, Idempotency idempotency) {
        if (idempotency == null) {
            return k;
        }
        List<String> all = new ArrayList<>(k);
        all.add(keys.idempotencyRecord(c, idempotency.keyId())); // idempotency record
        return all;
    }

    /** The fingerprint and the record's TTL after a create script's arguments (idempotency_lib.lua). */
    private static List<String> withRecord(List<String> a, Idempotency idempotency) {
        if (idempotency == null) {
            return a;
        }
        List<String> all = new ArrayList<>(a);
        all.add(idempotency.fingerprint());
        all.add(String.valueOf(Math.max(1, idempotency.ttl().toSeconds())));
        return all;
    }

    /**
     * @param changes the fields to change as JSON; @param reference null or the item one of the changes names
     *     (a dependency's {@code targetItemId}): checked only when it differs from the stored one, for an
     *     unchanged reference may be dangling (its item deleted) and a GET's body sent back keeps it
     */
    public Uni<WriteReply> updateEntry(
            Guard guard, Entity entity, long entryId, String changes, ItemReference reference) {
        long c = guard.configuratorId();
        List<String> k =
                List.of(keys.locks(c), keys.items(c), keys.entries(c, entity.collection())); // locks, items, entries
        return write(
                UPDATE_ENTRY,
                k,
                List.of(
                        guardJson(guard),
                        id(c),
                        entity.wireName(),
                        id(entryId),
                        changes,
                        reference == null ? "" : reference.field(),
                        reference == null ? "" : id(reference.itemId()),
                        keys.contentEventsChannel()));
    }

    public Uni<WriteReply> deleteEntry(Guard guard, Entity entity, long entryId) {
        long c = guard.configuratorId();
        List<String> k = List.of(
                keys.locks(c),
                keys.entries(c, entity.collection()),
                keys.itemEntries(c),
                keys.items(c)); // locks, entries, itemEntries, items
        return write(
                DELETE_ENTRY,
                k,
                List.of(
                        guardJson(guard),
                        id(c),
                        entity.wireName(),
                        id(entryId),
                        entity.onItemPage() ? entity.page().wireName() : "",
                        keys.contentEventsChannel()));
    }

    /** The raw snapshot: [] or [[id, name, createdAt], items, filters, dependencies, attribute values, variables]. */
    public Uni<Response> read(long c) {
        List<String> k = List.of(
                keys.configurator(c), // configurator
                keys.items(c), // items
                keys.entries(c, Entity.FILTER.collection()), // filters
                keys.entries(c, Entity.DEPENDENCY.collection()), // dependencies
                keys.entries(c, Entity.ATTRIBUTE_VALUE.collection()), // attributeValues
                keys.entries(c, Entity.VARIABLE.collection())); // variables
        return executor.run(READ_CONFIGURATOR, k, List.of()).onFailure().transform(LockStoreUnavailableException::of);
    }

    private Uni<WriteReply> write(LuaScript script, List<String> k, List<String> a) {
        return executor.run(script, k, a)
                .onFailure()
                .transform(LockStoreUnavailableException::of)
                .map(reply -> WriteReply.of(ScriptJson.parse(reply.toString())));
    }

    /** A write that may release locks (a delete): what it released is counted and audited as every release is. */
    private Uni<WriteReply> releasingWrite(LuaScript script, List<String> k, List<String> a) {
        return executor.run(script, k, a)
                .onFailure()
                .transform(LockStoreUnavailableException::of)
                .map(reply -> {
                    JsonNode json = ScriptJson.parse(reply.toString());
                    audit.released(LockRecords.released(json.path("released")));
                    return WriteReply.of(json);
                });
    }

    /** The guard, with the last moment its write may run. */
    private String guardJson(Guard guard) {
        return guard.toScriptJson(clock.lastMomentToRun());
    }

    private static String id(long id) {
        return String.valueOf(id);
    }
}
