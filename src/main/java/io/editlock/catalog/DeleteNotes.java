package io.editlock.catalog;

import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.StoreClock;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The deletes of one kind whose cleanup may still be due, in a sorted set (member
 * {@code <configuratorId>:<random>}, score: when the delete was asked for, on Redis's clock). A delete
 * is noted before its script runs, so that what its script leaves to do is found even if its node dies
 * right after it. The node that deleted takes its note away once it has cleaned up, or at once when the
 * script refused; every node sweeps now and then the notes nobody took away once their delete can no
 * longer be running.
 */
final class DeleteNotes {

    private static final Logger LOG = Logger.getLogger(DeleteNotes.class);

    /** Notes one sweep looks at, at most. */
    private static final int SWEEP_BATCH = 100;

    private final PipelinedRedis redis;
    private final StoreClock clock;
    private final String key;
    private final String what;

    /**
     * How long after a delete was asked for it may still run. Its script runs within the store timeout
     * or does nothing (StoreClock.lastMomentToRun); the minute covers the round trips before it.
     */
    private final long mayStillRunMillis;

    /** Notes the last sweep tried to settle and could not. */
    private final AtomicInteger unsettled = new AtomicInteger();

    /**
     * @param key the sorted set of this kind of delete
     * @param what the deletes, as the log names them ("deleted items")
     * @param storeTimeout quarkus.redis.timeout
     */
    DeleteNotes(PipelinedRedis redis, StoreClock clock, String key, String what, Duration storeTimeout) {
        this.redis = redis;
        this.clock = clock;
        this.key = key;
        this.what = what;
        this.mayStillRunMillis = storeTimeout.plus(Duration.ofMinutes(1)).toMillis();
    }

    /** One delete's note, under a name of its own: taking it away never takes another delete's note. */
    record Asked(long configuratorId, String member) {

        /** A note as the sorted set holds it; empty when it is not one (nothing to settle: it is dropped). */
        static Optional<Asked> of(String member) {
            int colon = member.indexOf(':');
            try {
                return Optional.of(new Asked(Long.parseLong(colon < 0 ? member : member.substring(0, colon)), member));
            } catch (NumberFormatException notANote) {
                return Optional.empty();
            }
        }
    }

    /** Before a delete in the configurator runs. */
    Uni<Asked> asked(long configuratorId) {
        Asked asked = new Asked(configuratorId, configuratorId + ":" + UUID.randomUUID());
        return execute(Command.ZADD, key, String.valueOf(clock.nowMillis()), asked.member())
                .replaceWith(asked);
    }

    /** The delete's script ran and answered other than OK: it left nothing to do. */
    Uni<Void> refused(Asked asked) {
        return forget(asked).onFailure().recoverWithNull();
    }

    /** Runs a delete's cleanup in the background, right after the delete; what fails is left to the sweep. */
    void cleanUpSoon(Asked asked, Uni<?> cleanUp) {
        cleanUp.subscribe()
                .with(
                        cleaned -> {},
                        failure -> LOG.warnf(
                                "the cleanup after %s of configurator %d is left to the sweep: %s",
                                what, asked.configuratorId(), failure.getMessage()));
    }

    /** A scheduled sweep: its failure is logged, and the next one tries again. */
    Uni<Void> sweepNow(Uni<Integer> sweep) {
        return sweep.onFailure()
                .recoverWithUni(failure -> {
                    LOG.debugf("the sweep of %s failed (will retry): %s", what, failure.getMessage());
                    return Uni.createFrom().item(0);
                })
                .replaceWithVoid();
    }

    /** Once what the delete left to do is done. */
    Uni<Void> forget(Asked asked) {
        return execute(Command.ZREM, key, asked.member()).replaceWithVoid();
    }

    /**
     * Settles the notes nobody took away whose delete can no longer be running, one at a time; a note
     * whose settling fails is left to the next sweep, the others are settled all the same, and {@link
     * #unsettled} counts it.
     *
     * @param settle finishes what the noted delete left to do, if it ran, and forgets the note
     * @return how many notes it looked at
     */
    Uni<Integer> sweep(Function<Asked, Uni<Void>> settle) {
        return execute(
                        Command.ZRANGEBYSCORE,
                        key,
                        "-inf",
                        String.valueOf(clock.nowMillis() - mayStillRunMillis),
                        "LIMIT",
                        "0",
                        String.valueOf(SWEEP_BATCH))
                .flatMap(notes -> {
                    List<String> members = new ArrayList<>();
                    notes.forEach(member -> members.add(member.toString()));
                    return Multi.createFrom()
                            .iterable(members)
                            .onItem()
                            .transformToUniAndConcatenate(member -> settle(member, settle))
                            .collect()
                            .asList()
                            .invoke(settled -> unsettled.set(
                                    (int) settled.stream().filter(done -> !done).count()))
                            .map(List::size);
                });
    }

    /**
     * How many notes the last sweep found overdue and could not settle: above 0 while a cleanup keeps
     * failing, whose ids stay in the global indexes meanwhile (the log says why).
     */
    int unsettled() {
        return unsettled.get();
    }

    /** @return whether the note is settled */
    private Uni<Boolean> settle(String member, Function<Asked, Uni<Void>> settle) {
        Optional<Asked> note = Asked.of(member);
        if (note.isEmpty()) {
            return execute(Command.ZREM, key, member).replaceWith(true);
        }
        Asked asked = note.get();
        return settle.apply(asked).replaceWith(true).onFailure().recoverWithItem(failure -> {
            LOG.warnf(
                    "%s of configurator %d not cleaned up by this sweep (the next one tries again): %s",
                    what, asked.configuratorId(), failure.getMessage());
            return false;
        });
    }

    private Uni<Response> execute(Command command, String... args) {
        return redis.execute(command, args).onFailure().transform(LockStoreUnavailableException::of);
    }
}
