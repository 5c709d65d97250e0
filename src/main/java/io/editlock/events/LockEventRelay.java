package io.editlock.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.lock.Lock;
import io.editlock.lock.LockChange;
import io.editlock.lock.LockService;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.ReleasedLock;
import io.editlock.lock.redis.LockRecords;
import io.editlock.lock.redis.LockScripts;
import io.editlock.protocol.ServerEvents;
import io.editlock.protocol.WireFormat;
import io.editlock.redis.LastingSubscription;
import io.editlock.redis.ListeningReadiness;
import io.editlock.redis.LockEventsThread;
import io.editlock.redis.LockKeys;
import io.editlock.redis.ScriptJson;
import io.editlock.redis.StoreDataWatch;
import io.editlock.session.FrameSender;
import io.editlock.session.SessionRegistry;
import io.editlock.session.ShownLocks;
import io.editlock.session.SocketSession;
import io.editlock.waiting.InFlightRequests;
import io.editlock.waiting.WaitEventRelay;
import io.editlock.waiting.WaitingState;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Fan-out across nodes: every lock change is published by the script that made it; each node
 * receives it here and forwards it to its own sockets — {@code lock-released} and
 * {@code lock-updated} to the configurator's watchers, {@code lock-lost} to the former holder.
 * Each frame is serialized once, whatever the number of watchers, and written by {@link FanOut}.
 *
 * <p>The waiting lines' and take-overs' events come on the same channel and are handed to the
 * {@link WaitEventRelay}: one subscription hears a configurator's changes in the order the scripts made
 * them, so the last {@code lock-updated} a watcher gets is the state after the last change (two
 * channels would let an older state arrive after a newer one).
 *
 * <p>Pub/sub delivers at most once: changes published while this node's subscription was down are
 * lost. So when the subscription comes back, every watched configurator gets a fresh
 * {@code lock-updated}, and nobody keeps showing a lock that is gone, and every client told it holds a
 * lock that ended meanwhile gets its {@code lock-lost} ({@link LostLockCatchUp}). The locks-held
 * figures are read again too. A change heard while such a read is on its way is at least as new as the
 * read's answer (every change carries all of its configurator's locks), so that answer is then dropped.
 *
 * <p>A grant that needs a look at its configurator when its lease ends is scheduled by the node of
 * the granted socket after the script answered; the other nodes schedule it here too, so that a node
 * dying in between leaves no lock that nobody would ever release.
 */
@ApplicationScoped
public class LockEventRelay {

    private static final Logger LOG = Logger.getLogger(LockEventRelay.class);
    /** The mark of a waiting lines' and take-overs' event among the lock events (waitlines_lib.lua). */
    private static final String WAITING_EVENT = "waiting";

    private final ReactiveRedisDataSource redis;
    private final LockKeys keys;
    private final SessionRegistry registry;
    private final LockService locks;
    private final Vertx vertx;
    private final RelayMetrics metrics;
    private final WaitingState waitingState;
    private final FrameSender sender;
    private final FanOut fanOut;
    private final LostLockCatchUp lostLocks;
    private final ListeningReadiness listening;
    private final LockScripts lockScripts;
    private final WaitEventRelay waitEvents;
    private final ShownLocks shown;
    private final LocksHeldRecount recount;
    private final LockEventsThread eventsThread;
    /** Catch-up reads of a configurator's locks, by configurator: a change heard meanwhile overtakes them. */
    private final InFlightRequests catchUpReads = new InFlightRequests();

    private final StoreDataWatch dataWatch;
    private volatile LastingSubscription subscription;

    public LockEventRelay(
            ReactiveRedisDataSource redis,
            LockKeys keys,
            SessionRegistry registry,
            LockService locks,
            Vertx vertx,
            ListeningReadiness listening,
            RelayMetrics metrics,
            FrameSender sender,
            WaitingState waitingState,
            FanOut fanOut,
            LostLockCatchUp lostLocks,
            LockScripts lockScripts,
            WaitEventRelay waitEvents,
            ShownLocks shown,
            LocksHeldRecount recount,
            LockEventsThread eventsThread,
            StoreDataWatch dataWatch) {
        this.dataWatch = dataWatch;
        this.recount = recount;
        this.eventsThread = eventsThread;
        this.lockScripts = lockScripts;
        this.shown = shown;
        this.waitEvents = waitEvents;
        this.sender = sender;
        this.lostLocks = lostLocks;
        this.waitingState = waitingState;
        this.fanOut = fanOut;
        this.redis = redis;
        this.keys = keys;
        this.registry = registry;
        this.locks = locks;
        this.vertx = vertx;
        this.listening = listening;
        this.metrics = metrics;
    }

    void start(@Observes StartupEvent event) {
        subscription = listening.watch(LastingSubscription.start(
                redis, vertx, keys.lockEventsChannel(), this::deliver, dataWatch::catchingUp, this::resync));
        eventsThread.deliveredBy(subscription);
    }

    void stop(@Observes ShutdownEvent event) {
        LastingSubscription current = subscription;
        if (current != null) {
            current.stop();
        }
    }

    /** The store lost its data while this node's subscription stayed up: nothing announced the locks that went. */
    void storeDataLost(@Observes StoreDataWatch.StoreDataLost lost) {
        if (lost.toldByCatchUp()) {
            return; // that catch-up is this relay's resync
        }
        resync();
    }

    /** What this node may have missed while it heard nothing (docs/protocol.md §4). */
    private void resync() {
        // Before the next event is delivered: what it announces is then no longer owed.
        List<Long> watched = List.copyOf(registry.watchedConfigurators());
        ShownLocks.CatchUp catchUp = shown.catchUpBegins(watched);
        waitEvents.catchUp();
        // Holders first: a lock-lost is then never later than the lock-updated that no longer shows the lock.
        lostLocks
                .tellLost()
                .subscribe()
                .with(ignored -> resyncWatchers(watched, catchUp), failure -> resyncWatchers(watched, catchUp));
        recount.recount(watched, catchUpReads);
    }

    /**
     * A fresh {@code lock-updated} of every configurator watched on this node, after the
     * {@code lock-released} of each lock its watchers were shown and that ended unheard.
     */
    private void resyncWatchers(List<Long> watched, ShownLocks.CatchUp catchUp) {
        for (Long configuratorId : watched) {
            InFlightRequests.Ticket read = catchUpReads.started(readKey(configuratorId));
            // The waiting counts too: their events may have been missed as well.
            waitingState
                    .refresh(configuratorId)
                    .onFailure()
                    .recoverWithNull()
                    .chain(() -> locks.locks(configuratorId))
                    // Redis may still be loading its data right after it came back.
                    .onFailure()
                    .retry()
                    .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2))
                    .atMost(5)
                    .subscribe()
                    .with(
                            current -> eventsThread.run(() -> caughtUp(catchUp, read, configuratorId, current)),
                            failure -> {
                                catchUpReads.dropped(read);
                                shown.abandoned(catchUp, configuratorId);
                                LOG.warnf(
                                        "re-sync of configurator %d failed, its watchers may show old locks until the next change: %s",
                                        configuratorId, failure.getMessage());
                            });
        }
    }

    /**
     * The read's answer, on the thread that delivers the changes: a change heard before it overtook it
     * (it is at least as new: it carries all the configurator's locks), and one heard after it is
     * broadcast after it, on every event loop (a broadcast from another thread would reach the sockets
     * of this thread's loop after the change's).
     */
    private void caughtUp(
            ShownLocks.CatchUp catchUp, InFlightRequests.Ticket read, long configuratorId, List<Lock> current) {
        try {
            boolean endedUnheard = announceEndedUnheard(catchUp, configuratorId, current);
            if (catchUpReads.answered(read, () -> {})) {
                metrics.counted(configuratorId, current);
                broadcastState(configuratorId, current);
            } else if (endedUnheard) {
                // The lock-released above came after the newer change's lock-updated: the watchers get
                // that state again after them (docs/protocol.md §4), less what they were just told ended.
                shown.showing(configuratorId).ifPresent(locks -> broadcastState(configuratorId, locks));
            }
        } finally {
            catchUpReads.dropped(read);
        }
    }

    static String readKey(long configuratorId) {
        return String.valueOf(configuratorId);
    }

    void deliver(String message) {
        JsonNode event;
        LockChange change;
        try {
            event = ScriptJson.parse(message);
            if (WAITING_EVENT.equals(event.path("kind").asText())) {
                // A grant (from a line, a hand-over) comes with a release in the same run, whose lock event
                // follows this one with the same locks and counts: its lock-released must reach the watchers
                // before a lock-updated shows the new holder, so that lock-updated is left to it.
                if (waitEvents.deliver(event) && event.path("grants").isEmpty()) {
                    long configuratorId = event.path("c").asLong();
                    List<Lock> current = LockRecords.locks(event.path("locks"));
                    catchUpReads.ended(readKey(configuratorId));
                    metrics.counted(configuratorId, current);
                    broadcastState(configuratorId, current);
                }
                return;
            }
            change = LockRecords.change(event);
        } catch (RuntimeException e) {
            LOG.warnf("ignoring a malformed lock event: %s", e.getMessage());
            return;
        }
        catchUpReads.ended(readKey(change.configuratorId()));
        metrics.received(change);
        change.look()
                .filter(look -> registry.find(look.grantedSocketId()).isEmpty())
                .ifPresent(look -> scheduleLook(change.configuratorId(), look.atMillis()));
        for (ReleasedLock released : change.released()) {
            String releasedFrame = WireFormat.frame(ServerEvents.LOCK_RELEASED, WireFormat.released(released), null);
            // docs/protocol.md §4: lock-released goes to the requester of an unlock and to every watcher, once
            // each: the requester already has it as its reply.
            String requester = released.reason() == ReleaseReason.UNLOCK ? released.exceptSocketId() : null;
            fanOut.send(change.configuratorId(), registry.watchers(change.configuratorId()), releasedFrame, requester);
            Lock ended = released.lock();
            shown.heard(change.configuratorId(), ended);
            String lostFrame = WireFormat.lockLost(ended.resource(), released.reason());
            for (SocketSession session : registry.socketsOf(ended.ownerUserId())) {
                Runnable tell = () -> send(session, lostFrame);
                // Noted for every socket of the holder: any of them may be told of the grant later (its
                // reply, a line's grant to all of them), and must then hear of its end after it.
                if (!session.socketId().equals(released.exceptSocketId())) {
                    session.heldLocks().ended(ended.resource(), ended.token(), released.reason(), tell);
                } else if (released.reason() == ReleaseReason.UNLOCK) {
                    // Its unlock's reply tells it, unless that reply was UNAVAILABLE.
                    session.heldLocks().endedByItsUnlock(ended.resource(), ended.token(), tell);
                } else {
                    // The reply that made it tells it (a grant's released list).
                    session.heldLocks().ended(ended.resource(), ended.token(), released.reason(), () -> {});
                }
            }
        }
        change.waiting().ifPresent(lengths -> waitingState.counts(change.configuratorId(), lengths));
        broadcastState(change.configuratorId(), change.locks());
    }

    /** Only ever moves the look earlier, so every node doing it changes nothing once one has. */
    private void scheduleLook(long configuratorId, long atMillis) {
        lockScripts
                .scheduleExpiry(configuratorId, atMillis)
                .subscribe()
                .with(
                        ignored -> {},
                        failure -> LOG.debugf(
                                "look at configurator %d not scheduled here (its own node does it): %s",
                                configuratorId, failure.getMessage()));
    }

    /**
     * The node did not hear why they ended: reason {@code expired}, as the holders' {@code lock-lost}. A
     * socket whose own unlock's reply told it is not told again (docs/protocol.md §4).
     */
    /** @return whether it announced any */
    private boolean announceEndedUnheard(ShownLocks.CatchUp catchUp, long configuratorId, List<Lock> current) {
        List<ShownLocks.Ended> endedUnheard = shown.endedUnheard(catchUp, configuratorId, current);
        for (ShownLocks.Ended ended : endedUnheard) {
            String frame = WireFormat.frame(
                    ServerEvents.LOCK_RELEASED,
                    WireFormat.released(new ReleasedLock(ended.lock(), ReleaseReason.EXPIRED, "")),
                    null);
            fanOut.send(
                    configuratorId,
                    registry.watchers(configuratorId),
                    frame,
                    ended.toldSocketId().orElse(null));
            // No longer shown, and owed by no other catch-up.
            shown.heard(configuratorId, ended.lock());
        }
        return !endedUnheard.isEmpty();
    }

    private void broadcastState(long configuratorId, List<Lock> current) {
        Collection<SocketSession> watchers = registry.watchers(configuratorId);
        if (watchers.isEmpty()) {
            shown.forget(configuratorId);
            return;
        }
        shown.broadcast(configuratorId, current);
        ObjectNode updated = WireFormat.object().put("configuratorId", configuratorId);
        updated.set("locks", WireFormat.locks(current, false));
        waitingState.decorate(updated, configuratorId); // docs/protocol.md §14: the waiting lines' lengths
        String updatedFrame = WireFormat.frame(ServerEvents.LOCK_UPDATED, updated, null);
        fanOut.send(configuratorId, watchers, updatedFrame, null);
    }

    private void send(SocketSession session, String frame) {
        sender.send(session, frame);
    }
}
