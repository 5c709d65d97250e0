package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.LockService;
import io.editlock.lock.ReleaseReason;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Releases what an ended socket kept: its locks, its places in lines and its take-over requests
 * (docs/protocol.md §5, §13, §14), and its resume record. A release the store did not take (out of
 * reach, frozen) is tried again until it does, within a second of the store answering again: left to
 * its leases, a page would wait half a minute, a line could hand it to the socket that left, and a
 * take-over it asked for could take the page from its holder at the deadline.
 *
 * <p>It gives up on a socket after two lease TTLs: by then the store has ended its leases, places and
 * requests by itself, and a socket whose release the store keeps refusing must not hold up the others.
 *
 * <p>While the store does not answer, one waiting socket is tried at a time, so that a thousand sockets
 * that ended in an outage do not each wait out the store timeout on every try. When it answers, all of
 * them leave their lines before any lock is released: a page one frees then goes to a waiter who stays,
 * never for a moment to one who left too.
 */
@ApplicationScoped
public class SocketReleases {

    private static final Logger LOG = Logger.getLogger(SocketReleases.class);
    /**
     * Often: until it is carried out, a release that reaches the store first (another socket's unlock) may
     * hand a page to a waiter who went. A try is one probe while the store does not answer.
     */
    private static final Duration RETRY_EVERY = Duration.ofMillis(100);

    private static final int CONCURRENCY = 32;

    private final LockService locks;
    private final ResumeStore resumes;
    private final Vertx vertx;
    private final Duration giveUpAfter;
    /** Ended sockets whose release the store has not taken yet, by socket id. */
    private final Map<String, Unreleased> unreleased = new ConcurrentHashMap<>();
    /** A retry is under way: the next tick skips. */
    private final AtomicBoolean retrying = new AtomicBoolean();

    private long retryTimer = -1;

    public SocketReleases(LockService locks, ResumeStore resumes, Vertx vertx, EditlockConfig config) {
        this.locks = locks;
        this.resumes = resumes;
        this.vertx = vertx;
        this.giveUpAfter = config.lease().ttl().multipliedBy(2);
    }

    /** A socket whose release waits, since when (System.nanoTime()). */
    private record Unreleased(SocketSession session, long since) {}

    /** Releases what the ended socket kept (reason {@code disconnect}); when the store fails, it is tried again. */
    public Uni<Void> release(SocketSession session) {
        return attempt(session)
                .onFailure()
                .invoke(failure -> {
                    if (unreleased.putIfAbsent(session.socketId(), new Unreleased(session, System.nanoTime()))
                            == null) {
                        LOG.warnf(
                                "could not release socket %s (%s): trying again until the lock store answers",
                                session.socketId(), failure.getMessage());
                    }
                })
                .onFailure()
                .recoverWithNull();
    }

    /** How many ended sockets still wait for their release. */
    public int waiting() {
        return unreleased.size();
    }

    void retryEvery(@Observes StartupEvent started) {
        retryTimer = vertx.setPeriodic(RETRY_EVERY.toMillis(), id -> {
            if (unreleased.isEmpty() || !retrying.compareAndSet(false, true)) {
                return;
            }
            retry().subscribe().with(ignored -> retrying.set(false), failure -> retrying.set(false));
        });
    }

    void stop(@Observes ShutdownEvent stopping) {
        vertx.cancelTimer(retryTimer);
    }

    /** Tries every waiting release again: the first alone, the others once the store took that one. */
    Uni<Void> retry() {
        long now = System.nanoTime();
        unreleased.values().removeIf(waiting -> {
            boolean over = now - waiting.since() > giveUpAfter.toNanos();
            if (over) {
                LOG.warnf(
                        "gave up releasing socket %s: the store has ended what it kept by itself by now",
                        waiting.session().socketId());
            }
            return over;
        });
        List<SocketSession> waiting =
                unreleased.values().stream().map(Unreleased::session).toList();
        if (waiting.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return leaveLines(waiting.get(0))
                .chain(() -> each(waiting.subList(1, waiting.size()), this::leaveLines))
                .chain(() -> each(waiting, this::retried))
                .invoke(() -> {
                    int released = waiting.size()
                            - (int) waiting.stream()
                                    .filter(session -> unreleased.containsKey(session.socketId()))
                                    .count();
                    if (released > 0) {
                        LOG.infof("released %d ended socket(s) now that the lock store answers again", released);
                    }
                })
                .onFailure()
                .invoke(failure -> LOG.debugf("the lock store still does not take releases: %s", failure.getMessage()))
                .onFailure()
                .recoverWithNull();
    }

    /**
     * Its resume record goes first: a resume that came after the places left would move the socket's locks
     * without them (docs/protocol.md §5: a resume moves all or nothing). One that came before moved them all,
     * and leaves nothing here to leave or release.
     */
    private Uni<Void> leaveLines(SocketSession session) {
        return resumes.forget(session).chain(() -> locks.leaveLines(session.socketId()));
    }

    private Uni<Void> retried(SocketSession session) {
        return attempt(session)
                .invoke(() -> unreleased.remove(session.socketId()))
                .onFailure()
                .recoverWithNull();
    }

    private Uni<Void> attempt(SocketSession session) {
        return locks.releaseSocket(session.socketId(), ReleaseReason.DISCONNECT)
                .chain(() -> resumes.forget(session))
                .replaceWithVoid();
    }

    private static Uni<Void> each(List<SocketSession> sessions, Function<SocketSession, Uni<Void>> step) {
        return Multi.createFrom()
                .iterable(sessions)
                .onItem()
                .transformToUni(session -> step.apply(session))
                .merge(CONCURRENCY)
                .collect()
                .last()
                .replaceWithVoid();
    }
}
