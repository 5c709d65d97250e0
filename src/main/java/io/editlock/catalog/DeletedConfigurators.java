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
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * What a configurator's delete leaves to do after it. The delete itself takes O(1) whatever the
 * configurator's size (delete_configurator.lua sets its records aside); the ids of those records are
 * still in the global indexes, which live in other hash slots. Here they are taken out in batches of
 * {@value #BATCH}, each a few short commands, so that Redis serves everybody else in between, and
 * then the set-aside records go. Until then an index entry names a configurator that is gone, which
 * every lookup answers as an unknown id.
 *
 * <p>The node that deleted cleans up at once; every node also sweeps, now and then, the deletes that
 * were asked for and not cleaned up (their node died, or Redis failed on the way). Two nodes cleaning
 * the same configurator do the same harmless removals twice.
 */
@ApplicationScoped
public class DeletedConfigurators {

    /** What a delete sets aside: the records whose ids are in a global index. */
    static final List<Entity> SET_ASIDE =
            List.of(Entity.ITEM, Entity.FILTER, Entity.DEPENDENCY, Entity.ATTRIBUTE_VALUE, Entity.VARIABLE);

    private static final Logger LOG = Logger.getLogger(DeletedConfigurators.class);

    /** Ids taken out of an index by one command, and records asked for by one HSCAN. */
    private static final int BATCH = 500;

    /** Deletes one sweep looks at, at most. */
    private static final int SWEEP_BATCH = 100;

    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final CatalogIndex index;
    private final StoreClock clock;

    /**
     * How long after a delete was asked for it may still run. Its script runs within the store
     * timeout or does nothing (StoreClock.lastMomentToRun); the minute covers the round trips before it.
     */
    private final long mayStillRunMillis;

    public DeletedConfigurators(
            PipelinedRedis redis,
            LockKeys keys,
            CatalogIndex index,
            StoreClock clock,
            @ConfigProperty(name = "quarkus.redis.timeout", defaultValue = "10s") Duration timeout) {
        this.redis = redis;
        this.keys = keys;
        this.index = index;
        this.clock = clock;
        this.mayStillRunMillis = timeout.plus(Duration.ofMinutes(1)).toMillis();
    }

    /** Before a delete runs: from now on, what it sets aside is found even if this node dies. */
    Uni<Void> asked(long configuratorId) {
        return execute(
                        Command.ZADD,
                        keys.deletedConfigurators(),
                        String.valueOf(clock.nowMillis()),
                        String.valueOf(configuratorId))
                .replaceWithVoid();
    }

    /** After a delete ran: cleans up in the background; what fails is left to the sweep. */
    void cleanUpSoon(long configuratorId) {
        cleanUp(configuratorId)
                .subscribe()
                .with(
                        cleaned -> {},
                        failure -> LOG.warnf(
                                "the cleanup of deleted configurator %d is left to the next sweep: %s",
                                configuratorId, failure.getMessage()));
    }

    @Scheduled(
            every = "${editlock.catalog.cleanup-interval:10s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> sweepNow() {
        return sweep().onFailure()
                .recoverWithUni(failure -> {
                    LOG.debugf("deleted configurators' sweep failed (will retry): %s", failure.getMessage());
                    return Uni.createFrom().item(0);
                })
                .replaceWithVoid();
    }

    /**
     * Cleans up after the deletes that ran, and forgets those that did not and no longer can (refused,
     * or their node died before running them).
     *
     * @return how many deletes it looked at
     */
    public Uni<Integer> sweep() {
        String cutoff = String.valueOf(clock.nowMillis() - mayStillRunMillis);
        return execute(
                        Command.ZRANGEBYSCORE,
                        keys.deletedConfigurators(),
                        "-inf",
                        "+inf",
                        "LIMIT",
                        "0",
                        String.valueOf(SWEEP_BATCH))
                .flatMap(asked -> execute(
                                Command.ZRANGEBYSCORE,
                                keys.deletedConfigurators(),
                                "-inf",
                                cutoff,
                                "LIMIT",
                                "0",
                                String.valueOf(SWEEP_BATCH))
                        .map(old -> {
                            Set<Long> oldIds = new HashSet<>(ids(old));
                            return ids(asked).stream()
                                    .map(id -> new Asked(id, oldIds.contains(id)))
                                    .toList();
                        }))
                .flatMap(asked -> Multi.createFrom()
                        .iterable(asked)
                        .onItem()
                        .transformToUniAndConcatenate(this::settle)
                        .collect()
                        .asList()
                        .map(List::size));
    }

    private Uni<Void> settle(Asked asked) {
        return execute(Command.EXISTS, keys.configurator(asked.configuratorId()))
                .flatMap(exists -> {
                    if (exists.toLong() == 0) {
                        return cleanUp(asked.configuratorId()).replaceWithVoid();
                    }
                    return asked.mayNoLongerRun()
                            ? forget(asked.configuratorId())
                            : Uni.createFrom().voidItem();
                });
    }

    /**
     * Takes the set-aside ids out of their indexes and the records with them (the last one takes its
     * hash), then the delete out of the sweep.
     */
    Uni<Long> cleanUp(long configuratorId) {
        return Multi.createFrom()
                .iterable(SET_ASIDE)
                .onItem()
                .transformToUniAndConcatenate(entity -> cleanUp(configuratorId, entity))
                .collect()
                .with(Collectors.summingLong(Long::longValue))
                .call(() -> forget(configuratorId))
                .invoke(removed -> LOG.infof(
                        "deleted configurator %d: %d ids of its items and entries are out of the indexes",
                        configuratorId, removed));
    }

    /** @return how many ids it took out of the index */
    private Uni<Long> cleanUp(long configuratorId, Entity entity) {
        String setAside = keys.deletedRecords(configuratorId, entity.collection());
        AtomicReference<String> cursor = new AtomicReference<>("0");
        AtomicLong removed = new AtomicLong();
        // A cursor that goes on while its finds are removed still sees every record there was.
        return Multi.createBy()
                .repeating()
                .uni(() -> execute(Command.HSCAN, setAside, cursor.get(), "COUNT", String.valueOf(BATCH))
                        .flatMap(page -> {
                            cursor.set(page.get(0).toString());
                            List<Long> ids = new ArrayList<>();
                            Response found = page.get(1);
                            for (int i = 0; i < found.size(); i += 2) { // field, value, field, value, ...
                                ids.add(found.get(i).toLong());
                            }
                            return removeBatch(setAside, entity, ids).invoke(removed::addAndGet);
                        }))
                .whilst(count -> !cursor.get().equals("0"))
                .collect()
                .last()
                .map(last -> removed.get());
    }

    /** The index entries first: a record still set aside is found again by the next cleanup. */
    private Uni<Integer> removeBatch(String setAside, Entity entity, List<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        List<String> fields = new ArrayList<>(ids.size() + 1);
        fields.add(setAside);
        ids.forEach(id -> fields.add(String.valueOf(id)));
        return index.remove(entity, ids)
                .chain(() -> execute(Command.HDEL, fields.toArray(String[]::new)))
                .replaceWith(ids.size());
    }

    private Uni<Void> forget(long configuratorId) {
        return execute(Command.ZREM, keys.deletedConfigurators(), String.valueOf(configuratorId))
                .replaceWithVoid();
    }

    private static List<Long> ids(Response members) {
        List<Long> ids = new ArrayList<>();
        members.forEach(member -> ids.add(member.toLong()));
        return ids;
    }

    private Uni<Response> execute(Command command, String... args) {
        return redis.execute(command, args).onFailure().transform(LockStoreUnavailableException::of);
    }

    /** @param mayNoLongerRun asked for so long ago that a delete that has not run never will */
    private record Asked(long configuratorId, boolean mayNoLongerRun) {}
}
