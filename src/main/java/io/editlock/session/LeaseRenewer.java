package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.LockService;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The owning node renews the leases its sockets keep, while they live (and while a dropped one waits
 * for its resume). A node that dies stops renewing, and the reapers of the others take over.
 *
 * <p>Every pass starts on time, whatever became of the one before, and every socket's renewal ends
 * within one interval: a stuck Redis call costs that socket one renewal, never the node all of them.
 */
@ApplicationScoped
public class LeaseRenewer {

    private static final Logger LOG = Logger.getLogger(LeaseRenewer.class);
    private static final int CONCURRENCY = 32;
    private static final Duration RETRY_EVERY = Duration.ofMillis(250);

    private final SessionRegistry registry;
    private final SessionLifecycle lifecycle;
    private final LockService locks;
    private final ResumeStore resumes;
    private final Duration bound;
    /**
     * Sockets whose last renewal failed (the store did not answer): tried again four times a second rather
     * than at the next pass, so that a store back after an outage shorter than a lease has every lease
     * renewed before it runs out, whenever in the interval the outage ended.
     */
    private final Set<SocketSession> failed = ConcurrentHashMap.newKeySet();
    /** Renewals fail since the last one went through: said once, as a warning, and once when it ends. */
    private final AtomicBoolean failing = new AtomicBoolean();
    /** A retry of failed renewals is under way: the next tick skips. */
    private final AtomicBoolean retrying = new AtomicBoolean();

    private final Vertx vertx;
    private long retryTimer = -1;

    public LeaseRenewer(
            SessionRegistry registry,
            SessionLifecycle lifecycle,
            LockService locks,
            ResumeStore resumes,
            Vertx vertx,
            EditlockConfig config) {
        this.vertx = vertx;
        this.bound = config.lease().renewInterval();
        this.registry = registry;
        this.lifecycle = lifecycle;
        this.locks = locks;
        this.resumes = resumes;
    }

    @Scheduled(
            every = "${editlock.lease.renew-interval:10s}",
            concurrentExecution = Scheduled.ConcurrentExecution.PROCEED,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> renewAll() {
        List<SocketSession> keeping = new ArrayList<>();
        registry.all().stream().filter(SocketSession::mayKeepLocks).forEach(keeping::add);
        keeping.addAll(lifecycle.droppedSessions());
        return renew(keeping);
    }

    /**
     * Failed renewals are tried again four times a second, more often than Quarkus's scheduler looks at
     * its timers: when Redis answers again with less than a second left on a lease, the next try must
     * come before it runs out (docs/operations.md, "Redis unreachable").
     */
    void retryFailed(@Observes StartupEvent started) {
        retryTimer = vertx.setPeriodic(RETRY_EVERY.toMillis(), id -> {
            if (!retrying.compareAndSet(false, true)) {
                return; // the last try is still waiting for the store
            }
            renewFailed().subscribe().with(ignored -> retrying.set(false), failure -> retrying.set(false));
        });
    }

    void stop(@Observes ShutdownEvent stopping) {
        vertx.cancelTimer(retryTimer);
    }

    Uni<Void> renewFailed() {
        if (failed.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Collection<SocketSession> dropped = lifecycle.droppedSessions();
        List<SocketSession> again = new ArrayList<>();
        for (SocketSession session : List.copyOf(failed)) {
            failed.remove(session);
            if (session.mayKeepLocks() || dropped.contains(session)) {
                again.add(session);
            }
        }
        return renew(again);
    }

    private Uni<Void> renew(List<SocketSession> sessions) {
        return Multi.createFrom()
                .iterable(sessions)
                .onItem()
                .transformToUni(this::renew)
                .merge(CONCURRENCY)
                .collect()
                .last()
                .replaceWithVoid();
    }

    private Uni<Void> renew(SocketSession session) {
        boolean open = session.connection().isOpen();
        String userId = session.identity().userId();
        Uni<Void> renewed = (open
                        ? locks.renewSocket(session.socketId(), userId, session.heldLocks())
                        : locks.renewDroppedSocket(session.socketId(), userId))
                .replaceWithVoid();
        if (session.resumable() && open) {
            renewed = renewed.chain(() -> resumes.refresh(session));
        }
        return renewed.ifNoItem()
                .after(bound)
                .fail()
                .invoke(() -> {
                    // Once none is left failing: a store that fails some renewals and not others is said once.
                    if (failed.isEmpty() && failing.compareAndSet(true, false)) {
                        LOG.info("lease renewals go through again");
                    }
                })
                .onFailure()
                .invoke(failure -> {
                    if (failing.compareAndSet(false, true)) {
                        LOG.warnf(
                                "lease renewals fail (%s): what the sockets hold ends with its lease unless they go"
                                        + " through again",
                                failure.getMessage());
                    }
                    LOG.debugf("renewal of socket %s failed: %s", session.socketId(), failure.getMessage());
                    failed.add(session);
                })
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }
}
