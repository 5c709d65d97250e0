package io.editlock.catalog;

import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.lock.Page;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.StoreClock;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * What an item's delete leaves to do after it. The delete takes the items of the sub-tree away at once
 * and leaves the list of their ids (delete_item.lua), so that its cost does not grow with their
 * entries; the entries' records, their pages' lists and every id in the global indexes (other hash
 * slots) are taken out here, in batches, so that Redis serves everybody else in between. Until then an
 * entry of a deleted item is on no page of an item that exists, and every read and write finds it gone
 * with its item.
 */
// A singleton, not proxied: a client proxy would need a no-args constructor in DeleteCleanup.
@Singleton
public class DeletedItems extends DeleteCleanup {

    private static final Logger LOG = Logger.getLogger(DeletedItems.class);

    /** Deleted sub-trees asked for by one HSCAN. */
    private static final int SUBTREES_PER_SCAN = 10;

    /**
     * Items whose pages one batch takes out: their lists are read at once, each with at most
     * {@code editlock.limits.rest.entries-per-page} entries.
     */
    private static final int ITEMS_PER_BATCH = 50;

    /** Ids taken out of an index or a hash by one command. */
    private static final int IDS_PER_COMMAND = 500;

    /** The kind of entry on each page. */
    private static final Map<Page, Entity> ENTRIES_OF = new EnumMap<>(Page.class);

    static {
        for (Entity entity : Entity.values()) {
            if (entity.onItemPage()) {
                ENTRIES_OF.put(entity.page(), entity);
            }
        }
    }

    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final CatalogIndex index;

    public DeletedItems(
            PipelinedRedis redis,
            LockKeys keys,
            CatalogIndex index,
            StoreClock clock,
            @ConfigProperty(name = "quarkus.redis.timeout", defaultValue = "10s") Duration timeout) {
        super(new DeleteNotes(redis, clock, keys.deletedItems(), "deleted items", timeout));
        this.redis = redis;
        this.keys = keys;
        this.index = index;
    }

    @Override
    @Scheduled(
            every = "${editlock.catalog.cleanup-interval:10s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> sweepNow() {
        return super.sweepNow();
    }

    /** Cleans up what the configurator's deletes left (nothing, when the delete never ran). */
    @Override
    Uni<Void> settle(DeleteNotes.Asked asked) {
        return cleanUp(asked).replaceWithVoid();
    }

    /**
     * Cleans up after every deleted sub-tree the configurator holds, then forgets the delete's note.
     * Another cleanup of the same configurator at the same time does the same work twice, harmlessly.
     * A configurator deleted meanwhile took its entry hashes and lists along (DeletedConfigurators takes
     * those ids out); the sub-trees' item ids are still taken out here.
     */
    @Override
    Uni<Long> cleanUp(DeleteNotes.Asked asked) {
        long configuratorId = asked.configuratorId();
        String subtrees = keys.deletedSubtrees(configuratorId);
        return DrainingScan.drain(
                        redis,
                        Command.HSCAN,
                        subtrees,
                        SUBTREES_PER_SCAN,
                        fields -> cleanUpSubtrees(configuratorId, subtrees, fields))
                .call(() -> forget(asked))
                .invoke(removed -> LOG.logf(
                        removed > 0 ? Logger.Level.INFO : Logger.Level.DEBUG,
                        "deleted items of configurator %d: %d ids of items and entries are out of the indexes",
                        configuratorId,
                        removed));
    }

    /**
     * Each sub-tree's items, a batch at a time, then its field: a sub-tree whose field is still there is
     * cleaned up again by the next cleanup, which skips what is gone already.
     *
     * @return how many ids it took out
     */
    private Uni<Integer> cleanUpSubtrees(long configuratorId, String subtrees, List<String> fields) {
        return execute(Command.HMGET, withKey(subtrees, fields)).flatMap(lists -> {
            List<List<Long>> batches = new ArrayList<>();
            for (int i = 0; i < fields.size(); i++) {
                Response list = lists.get(i);
                // null: another cleanup took it meanwhile; a field of no known kind goes with the batch
                if (list != null && fields.get(i).endsWith(":items")) {
                    batches.addAll(chunks(CatalogRecords.ids(CatalogRecords.parse(list.toString())), ITEMS_PER_BATCH));
                }
            }
            return Multi.createFrom()
                    .iterable(batches)
                    .onItem()
                    .transformToUniAndConcatenate(items -> cleanUpItems(configuratorId, items))
                    .collect()
                    .with(Collectors.summingInt(Integer::intValue))
                    .call(() -> execute(Command.HDEL, withKey(subtrees, fields)));
        });
    }

    /**
     * The entries on the items' pages: out of their index, out of their hash, then the pages' lists;
     * then the items out of theirs.
     *
     * @return how many ids it took out
     */
    private Uni<Integer> cleanUpItems(long configuratorId, List<Long> items) {
        List<String> pages = new ArrayList<>();
        List<Entity> kinds = new ArrayList<>();
        for (long item : items) {
            ENTRIES_OF.forEach((page, kind) -> {
                pages.add(item + ":" + page.wireName());
                kinds.add(kind);
            });
        }
        String itemEntries = keys.itemEntries(configuratorId);
        return execute(Command.HMGET, withKey(itemEntries, pages)).flatMap(lists -> {
            Map<Entity, List<Long>> entries = new EnumMap<>(Entity.class);
            for (int i = 0; i < pages.size(); i++) {
                Response list = lists.get(i);
                if (list != null) {
                    entries.computeIfAbsent(kinds.get(i), kind -> new ArrayList<>())
                            .addAll(CatalogRecords.ids(CatalogRecords.parse(list.toString())));
                }
            }
            int count = items.size()
                    + entries.values().stream().mapToInt(List::size).sum();
            return Multi.createFrom()
                    .iterable(entries.entrySet())
                    .onItem()
                    .transformToUniAndConcatenate(kind -> removeEntries(configuratorId, kind.getKey(), kind.getValue()))
                    .collect()
                    .last()
                    .chain(() -> execute(Command.HDEL, withKey(itemEntries, pages)))
                    .chain(() -> index.remove(Entity.ITEM, items))
                    .replaceWith(count);
        });
    }

    private Uni<Void> removeEntries(long configuratorId, Entity kind, List<Long> ids) {
        String records = keys.entries(configuratorId, kind.collection());
        return Multi.createFrom()
                .iterable(chunks(ids, IDS_PER_COMMAND))
                .onItem()
                .transformToUniAndConcatenate(chunk -> index.remove(kind, chunk)
                        .chain(() -> execute(
                                Command.HDEL,
                                withKey(
                                        records,
                                        chunk.stream().map(String::valueOf).toList()))))
                .collect()
                .last()
                .replaceWithVoid();
    }

    private static List<List<Long>> chunks(List<Long> ids, int size) {
        List<List<Long>> chunks = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += size) {
            chunks.add(ids.subList(from, Math.min(ids.size(), from + size)));
        }
        return chunks;
    }

    private static String[] withKey(String key, List<String> fields) {
        return Stream.concat(Stream.of(key), fields.stream()).toArray(String[]::new);
    }

    private Uni<Response> execute(Command command, String... args) {
        return redis.execute(command, args).onFailure().transform(LockStoreUnavailableException::of);
    }
}
