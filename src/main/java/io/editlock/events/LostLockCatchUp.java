package io.editlock.events;

import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.lock.ReleaseReason;
import io.editlock.protocol.WireFormat;
import io.editlock.session.FrameSender;
import io.editlock.session.HeldLocks;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * After a while of hearing nothing (its subscription cut, the store restarted), this node tells each
 * of its clients of the locks that ended meanwhile, whose {@code lock-lost} it missed: a holder must
 * not go on editing a page that is no longer theirs (docs/protocol.md §4). A grant its client was
 * told of before the node heard again and whose record, by its fencing token, the store no longer
 * keeps, is lost; the node did not hear why, so the reason is {@code expired}. A record still kept,
 * even past its lease, is left alone: its release is still to come, and is announced as usual.
 */
@ApplicationScoped
public class LostLockCatchUp {

    private static final Logger LOG = Logger.getLogger(LostLockCatchUp.class);

    private final SessionRegistry registry;
    private final LockService locks;
    private final FrameSender sender;

    public LostLockCatchUp(SessionRegistry registry, LockService locks, FrameSender sender) {
        this.registry = registry;
        this.locks = locks;
        this.sender = sender;
    }

    /** Called when the node hears lock events again; ends when every holder who lost a lock was told. */
    Uni<Void> tellLost() {
        // Grants told from now on are newer than what the store is about to be asked.
        long since = System.nanoTime();
        Map<Long, List<Holding>> byConfigurator = new HashMap<>();
        for (SocketSession session : registry.all()) {
            session.heldLocksIfAny()
                    .ifPresent(held -> held.toldBefore(since)
                            .forEach(grant -> byConfigurator
                                    .computeIfAbsent(grant.resource().configuratorId(), id -> new ArrayList<>())
                                    .add(new Holding(session, held, grant))));
        }
        return Multi.createFrom()
                .iterable(byConfigurator.entrySet())
                .onItem()
                .transformToUniAndMerge(holdings -> tellLost(holdings.getKey(), holdings.getValue()))
                .collect()
                .last()
                .replaceWithVoid();
    }

    private Uni<Void> tellLost(long configuratorId, List<Holding> holdings) {
        return locks.storedLocks(configuratorId)
                // The store may still be loading its data right after it came back.
                .onFailure()
                .retry()
                .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2))
                .atMost(5)
                .invoke(stored -> holdings.forEach(holding -> tellIfLost(holding, stored)))
                .onFailure()
                .invoke(failure -> LOG.warnf(
                        "could not tell the holders in configurator %d of the locks they lost while this node"
                                + " heard nothing; they learn it when they write: %s",
                        configuratorId, failure.getMessage()))
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    private void tellIfLost(Holding holding, List<Lock> stored) {
        HeldLocks.Told grant = holding.grant();
        boolean kept = stored.stream()
                .anyMatch(lock -> lock.resource().equals(grant.resource()) && lock.token() == grant.token());
        if (kept) {
            return;
        }
        // Under the monitor a reply noting a newer grant of the page is written under
        // (RequestHandler.deliver): this lock-lost must not come after that reply.
        synchronized (holding.held()) {
            if (holding.held().lost(grant)) {
                sender.send(holding.session(), WireFormat.lockLost(grant.resource(), ReleaseReason.EXPIRED));
            }
        }
    }

    /** A grant as one socket's client was told of it. */
    private record Holding(SocketSession session, HeldLocks held, HeldLocks.Told grant) {}
}
