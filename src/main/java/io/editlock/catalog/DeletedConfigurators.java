package io.editlock.catalog;

import io.editlock.lock.LockStoreUnavailableException;
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
import java.util.List;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * What a configurator's delete leaves to do after it. The delete itself takes O(1) whatever the
 * configurator's size (delete_configurator.lua sets its records aside); the ids of those records are
 * still in the global indexes, which live in other hash slots. Here they are taken out in batches of
 * {@value #BATCH}, each a few short commands, so that Redis serves everybody else in between, and
 * then the set-aside records go. Until then an index entry names a configurator that is gone, which
 * every lookup answers as an unknown id. A note the sweep finds overdue is settled by whether the
 * configurator is gone: its delete ran, and is cleaned up after; else it never ran, and is forgotten.
 */
// A singleton, not proxied: a client proxy would need a no-args constructor in DeleteCleanup.
@Singleton
public class DeletedConfigurators extends DeleteCleanup {

    /** What a delete sets aside: the records whose ids are in a global index. */
    static final List<Entity> SET_ASIDE =
            List.of(Entity.ITEM, Entity.FILTER, Entity.DEPENDENCY, Entity.ATTRIBUTE_VALUE, Entity.VARIABLE);

    private static final Logger LOG = Logger.getLogger(DeletedConfigurators.class);

    /** Ids taken out of an index by one command, and records asked for by one HSCAN. */
    private static final int BATCH = 500;

    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final CatalogIndex index;

    public DeletedConfigurators(
            PipelinedRedis redis,
            LockKeys keys,
            CatalogIndex index,
            StoreClock clock,
            @ConfigProperty(name = "quarkus.redis.timeout", defaultValue = "10s") Duration timeout) {
        super(new DeleteNotes(redis, clock, keys.deletedConfigurators(), "deleted configurators", timeout));
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

    /** Cleans up after a delete that ran, forgets one that never did (its configurator is still there). */
    @Override
    Uni<Void> settle(DeleteNotes.Asked asked) {
        return execute(Command.EXISTS, keys.configurator(asked.configuratorId()))
                .flatMap(exists -> exists.toLong() == 0 ? cleanUp(asked).replaceWithVoid() : forget(asked));
    }

    /**
     * Takes the set-aside ids out of their indexes and the records with them (the last one takes its
     * hash), and the configurator out of the listing, then its deleted mark (its id is free from then
     * on) and the delete's note.
     */
    @Override
    Uni<Long> cleanUp(DeleteNotes.Asked asked) {
        long configuratorId = asked.configuratorId();
        return Multi.createFrom()
                .iterable(SET_ASIDE)
                .onItem()
                .transformToUniAndConcatenate(entity -> cleanUp(configuratorId, entity))
                .collect()
                .with(Collectors.summingLong(Long::longValue))
                .call(() -> index.remove(Entity.CONFIGURATOR, List.of(configuratorId)))
                .call(() -> execute(Command.DEL, keys.deletedConfigurator(configuratorId)))
                .call(() -> forget(asked))
                .invoke(removed -> LOG.logf(
                        removed > 0 ? Logger.Level.INFO : Logger.Level.DEBUG,
                        "deleted configurator %d: %d ids of its items and entries are out of the indexes",
                        configuratorId,
                        removed));
    }

    /** @return how many ids it took out of the index */
    private Uni<Long> cleanUp(long configuratorId, Entity entity) {
        String setAside = keys.deletedRecords(configuratorId, entity.collection());
        return DrainingScan.drain(redis, Command.HSCAN, setAside, BATCH, ids -> removeBatch(setAside, entity, ids));
    }

    /** The index entries first: a record still set aside is found again by the next cleanup. */
    private Uni<Integer> removeBatch(String setAside, Entity entity, List<String> ids) {
        List<String> fields = new ArrayList<>(List.of(setAside));
        fields.addAll(ids);
        return index.remove(entity, ids.stream().map(Long::parseLong).toList())
                .chain(() -> execute(Command.HDEL, fields.toArray(String[]::new)))
                .replaceWith(ids.size());
    }

    private Uni<Response> execute(Command command, String... args) {
        return redis.execute(command, args).onFailure().transform(LockStoreUnavailableException::of);
    }
}
