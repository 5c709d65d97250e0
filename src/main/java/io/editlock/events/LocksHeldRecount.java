package io.editlock.events;

import io.editlock.lock.LockService;
import io.editlock.waiting.InFlightRequests;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * After a time this node heard nothing, the locks-held figures of the configurators it counted and
 * that nobody here watches are read again (the watched ones are read for their watchers anyway): a
 * release or a delete it missed would otherwise stay counted for good. Every node does it at the same
 * moment when the store comes back, so one run at a time, a few reads at once; a catch-up asked for
 * during a run is made by the next run.
 */
@ApplicationScoped
class LocksHeldRecount {

    private static final Logger LOG = Logger.getLogger(LocksHeldRecount.class);
    private static final int READS_AT_ONCE = 4;

    private final LockService locks;
    private final RelayMetrics metrics;
    private final AtomicBoolean running = new AtomicBoolean();
    /** The watched configurators of the latest catch-up not run yet, or null. */
    private final AtomicReference<Set<Long>> asked = new AtomicReference<>();

    LocksHeldRecount(LockService locks, RelayMetrics metrics) {
        this.locks = locks;
        this.metrics = metrics;
    }

    /** @param reads the relay's catch-up reads: a change heard while one is on its way overtakes it */
    void recount(Collection<Long> watched, InFlightRequests reads) {
        asked.set(Set.copyOf(watched));
        if (running.compareAndSet(false, true)) {
            next(reads);
        }
    }

    private void next(InFlightRequests reads) {
        Set<Long> watched = asked.getAndSet(null);
        if (watched == null) {
            running.set(false);
            // Asked for between the look above and the flag's fall: that request must not wait for another.
            if (asked.get() != null && running.compareAndSet(false, true)) {
                next(reads);
            }
            return;
        }
        Set<Long> unwatched = new HashSet<>(metrics.countedConfigurators());
        unwatched.removeAll(watched);
        AtomicInteger failed = new AtomicInteger();
        Multi.createFrom()
                .iterable(unwatched)
                .onItem()
                .transformToUni(configuratorId -> read(configuratorId, reads, failed))
                .merge(READS_AT_ONCE)
                .collect()
                .last()
                .subscribe()
                .with(
                        ignored -> {
                            if (failed.get() > 0) {
                                LOG.warnf(
                                        "the locks-held figures may count %d configurator(s) wrongly until their next change: their locks could not be read again",
                                        failed.get());
                            }
                            next(reads);
                        },
                        failure -> next(reads));
    }

    private Uni<Void> read(long configuratorId, InFlightRequests reads, AtomicInteger failed) {
        return Uni.createFrom().deferred(() -> {
            if (asked.get() != null) {
                // A later catch-up is waiting: it reads again what this one has not read yet.
                return Uni.createFrom().voidItem();
            }
            InFlightRequests.Ticket read = reads.started(LockEventRelay.readKey(configuratorId));
            return locks.locks(configuratorId)
                    // Redis may still be loading its data right after it came back.
                    .onFailure()
                    .retry()
                    .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2))
                    .atMost(5)
                    .invoke(current -> reads.answered(read, () -> metrics.counted(configuratorId, current)))
                    .onFailure()
                    .invoke(failure -> {
                        reads.dropped(read);
                        failed.incrementAndGet();
                    })
                    .onFailure()
                    .recoverWithNull()
                    .replaceWithVoid();
        });
    }
}
