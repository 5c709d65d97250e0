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
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * What an item's delete leaves to do after it. The delete takes the items of the sub-tree away at once
 * and sets their pages' lists of entries aside whole (delete_item.lua), so that its cost does not
 * grow with the entries; the entries' records and every id in the global indexes (other hash slots)
 * are taken out here, in batches, so that Redis serves everybody else in between. Until then an
 * entry of a deleted item is on no page, and every read and write finds it gone with its item.
 *
 * <p>Each delete is noted before its script runs ({@link DeleteNotes}); the node that deleted cleans
 * up at once and takes its note away, and every node sweeps the notes that nobody took away once
 * their delete can no longer be running (its node died on the way, or Redis failed).
 */
@ApplicationScoped
public class DeletedItems {

    private static final Logger LOG = Logger.getLogger(DeletedItems.class);

    /**
     * Set-aside lists asked for by one HSCAN; each holds at most a page's entries
     * ({@code editlock.limits.rest.entries-per-page}) or a sub-tree's items.
     */
    private static final int LISTS_PER_BATCH = 10;

    /** Ids taken out of an index or a hash by one command. */
    private static final int IDS_PER_COMMAND = 500;

    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final CatalogIndex index;
    private final DeleteNotes notes;

    public DeletedItems(
            PipelinedRedis redis,
            LockKeys keys,
            CatalogIndex index,
            StoreClock clock,
            @ConfigProperty(name = "quarkus.redis.timeout", defaultValue = "10s") Duration timeout) {
        this.redis = redis;
        this.keys = keys;
        this.index = index;
        this.notes = new DeleteNotes(redis, clock, keys.deletedItems(), "a deleted item", timeout);
    }

    /** Before a delete runs: from now on, what it sets aside is found even if this node dies. */
    Uni<DeleteNotes.Asked> asked(long configuratorId) {
        return notes.asked(configuratorId);
    }

    /** The delete's script ran and answered other than OK: it set nothing aside. */
    Uni<Void> refused(DeleteNotes.Asked asked) {
        return notes.refused(asked);
    }

    /** After a delete ran: cleans up in the background; what fails is left to the sweep. */
    void cleanUpSoon(DeleteNotes.Asked asked) {
        cleanUp(asked)
                .subscribe()
                .with(
                        cleaned -> {},
                        failure -> LOG.warnf(
                                "the cleanup after a deleted item of configurator %d is left to the sweep: %s",
                                asked.configuratorId(), failure.getMessage()));
    }

    @Scheduled(
            every = "${editlock.catalog.cleanup-interval:10s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> sweepNow() {
        return sweep().onFailure()
                .recoverWithUni(failure -> {
                    LOG.debugf("deleted items' sweep failed (will retry): %s", failure.getMessage());
                    return Uni.createFrom().item(0);
                })
                .replaceWithVoid();
    }

    /**
     * Settles the notes nobody took away whose delete can no longer be running: cleans up what the
     * configurator has set aside (nothing, when the delete never ran), then forgets the note.
     *
     * @return how many notes it settled
     */
    public Uni<Integer> sweep() {
        return notes.sweep(asked -> cleanUp(asked).replaceWithVoid());
    }

    /**
     * Takes every list the configurator's item deletes set aside out: the ids out of their indexes,
     * the entries' records out of their hashes, then the list (the last one takes the hash); then the
     * delete's note. Another cleanup of the same configurator at the same time does the same work
     * twice, harmlessly. A configurator deleted meanwhile has taken its entry hashes along
     * (DeletedConfigurators cleans up their ids); its set-aside lists are still cleaned up here.
     */
    Uni<Long> cleanUp(DeleteNotes.Asked asked) {
        long configuratorId = asked.configuratorId();
        String setAside = keys.deletedSubtrees(configuratorId);
        return DrainingScan.drain(
                        redis,
                        Command.HSCAN,
                        setAside,
                        LISTS_PER_BATCH,
                        lists -> removeBatch(configuratorId, setAside, lists))
                .call(() -> notes.forget(asked))
                .invoke(removed -> LOG.logf(
                        removed > 0 ? Logger.Level.INFO : Logger.Level.DEBUG,
                        "deleted items of configurator %d: %d ids of items and entries are out of the indexes",
                        configuratorId,
                        removed));
    }

    /**
     * The index entries first, then the records, then the lists: a list still set aside is found again
     * by the next cleanup.
     *
     * @return how many ids it took out
     */
    private Uni<Integer> removeBatch(long configuratorId, String setAside, List<String> fields) {
        List<String> read = new ArrayList<>(List.of(setAside));
        read.addAll(fields);
        return execute(Command.HMGET, read.toArray(String[]::new)).flatMap(lists -> {
            Map<Entity, List<Long>> ids = new EnumMap<>(Entity.class);
            for (int i = 0; i < fields.size(); i++) {
                Response list = lists.get(i);
                Optional<Entity> kind = kindOf(fields.get(i));
                if (list != null && kind.isPresent()) { // null: another cleanup took it meanwhile
                    ids.computeIfAbsent(kind.get(), k -> new ArrayList<>())
                            .addAll(CatalogRecords.ids(CatalogRecords.parse(list.toString())));
                }
            }
            int count = ids.values().stream().mapToInt(List::size).sum();
            return Multi.createFrom()
                    .iterable(ids.entrySet())
                    .onItem()
                    .transformToUniAndConcatenate(kind -> remove(configuratorId, kind.getKey(), kind.getValue()))
                    .collect()
                    .last()
                    .chain(() -> execute(Command.HDEL, read.toArray(String[]::new)))
                    .replaceWith(count);
        });
    }

    /** An item's ids leave its index (its record went with the delete); an entry's, its record too. */
    private Uni<Void> remove(long configuratorId, Entity kind, List<Long> ids) {
        return Multi.createFrom()
                .iterable(chunks(ids))
                .onItem()
                .transformToUniAndConcatenate(chunk -> index.remove(kind, chunk)
                        .chain(() -> kind == Entity.ITEM
                                ? Uni.createFrom().voidItem()
                                : execute(Command.HDEL, withKey(keys.entries(configuratorId, kind.collection()), chunk))
                                        .replaceWithVoid()))
                .collect()
                .last()
                .replaceWithVoid();
    }

    /**
     * What a set-aside list holds, by its field: {@code <itemId>:items} a sub-tree's items, {@code
     * <itemId>:<page>} that page's entries. Empty for a field of no known kind: no delete writes one,
     * and it goes with its batch rather than stay for ever.
     */
    static Optional<Entity> kindOf(String field) {
        String suffix = field.substring(field.lastIndexOf(':') + 1);
        if (suffix.equals("items")) {
            return Optional.of(Entity.ITEM);
        }
        return Page.fromWire(suffix)
                .flatMap(page -> Arrays.stream(Entity.values())
                        .filter(entity -> entity.page() == page)
                        .findFirst());
    }

    private static List<List<Long>> chunks(List<Long> ids) {
        List<List<Long>> chunks = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += IDS_PER_COMMAND) {
            chunks.add(ids.subList(from, Math.min(ids.size(), from + IDS_PER_COMMAND)));
        }
        return chunks;
    }

    private static String[] withKey(String key, List<Long> ids) {
        return Stream.concat(Stream.of(key), ids.stream().map(String::valueOf)).toArray(String[]::new);
    }

    private Uni<Response> execute(Command command, String... args) {
        return redis.execute(command, args).onFailure().transform(LockStoreUnavailableException::of);
    }
}
