package io.editlock.session;

import io.editlock.auth.Identity;
import io.editlock.config.EditlockConfig;
import io.editlock.lock.LockService;
import io.editlock.lock.MovedSocket;
import io.editlock.protocol.CloseReasons;
import io.quarkus.websockets.next.CloseReason;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * How a socket begins and ends (docs/protocol.md §5): a close with 1000 releases what it alone kept at once;
 * a page that went away (1001, also a reload) keeps it for the short reload grace, and a drop for the
 * grace period, for a resume on any node; after that it is released. A node that stops ends every
 * socket as a drop (see {@link NodeStop}).
 */
@ApplicationScoped
public class SessionLifecycle {

    private static final Logger LOG = Logger.getLogger(SessionLifecycle.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SessionRegistry registry;
    private final LockService locks;
    private final ResumeStore resumes;
    private final SocketReleases releases;
    private final NodeIdentity node;
    private final Vertx vertx;
    private final Duration grace;
    private final Duration reloadGrace;
    /** Dropped sockets waiting out their grace period; their leases are still renewed. */
    private final Map<String, Dropped> dropped = new ConcurrentHashMap<>();
    /** Ends of sockets still being handled (their drop noted in the store, or their release). */
    private final AtomicInteger ending = new AtomicInteger();

    private volatile boolean stopping;

    public SessionLifecycle(
            SessionRegistry registry,
            LockService locks,
            ResumeStore resumes,
            SocketReleases releases,
            NodeIdentity node,
            Vertx vertx,
            EditlockConfig config) {
        this.registry = registry;
        this.locks = locks;
        this.resumes = resumes;
        this.releases = releases;
        this.node = node;
        this.vertx = vertx;
        this.grace = config.session().gracePeriod();
        this.reloadGrace = config.session().reloadGrace();
    }

    public SocketSession open(ClientConnection connection, Identity identity) {
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        SocketSession session = new SocketSession(
                connection,
                identity,
                node.id(),
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
        registry.add(session);
        if (stopping) {
            closeByServer(session, CloseReasons.NODE_STOPPING); // its client goes to another node
        }
        return session;
    }

    /**
     * Called before a socket's lock requests: from the first on it can be resumed and must be released.
     * After an idle release it is written again: nothing renewed the resume record while the user was
     * away, so it may have run out, and a drop would then hand the page on (docs/protocol.md §5).
     */
    public Uni<Void> beforeLockRequest(SocketSession session) {
        boolean keeping = session.mayKeepLocks();
        session.mayKeepLocks(true);
        if (session.resumable() && keeping) {
            return Uni.createFrom().voidItem();
        }
        session.resumable(true);
        return resumes.recordLive(session)
                .onFailure()
                .invoke(() -> session.resumable(false))
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    public Uni<Void> closed(SocketSession session, CloseReason reason) {
        registry.remove(session);
        // A socket that ever asked for a lock has bookkeeping in the store, also when idleness took its locks.
        if (!session.mayKeepLocks() && !session.resumable()) {
            return Uni.createFrom().voidItem();
        }
        ending.incrementAndGet();
        Uni<Void> ended = switch (SocketEnd.of(reason, session.closedByServer())) {
            case DONE -> releaseNow(session);
            case PAGE_GONE -> keepForGrace(session, reloadGrace);
            case DROPPED -> keepForGrace(session, grace);
        };
        return ended.onTermination().invoke(ending::decrementAndGet);
    }

    /**
     * The node stops: it takes no more sockets (one that opens now is closed at once) and ends every
     * open socket as a drop, so that its locks wait for a resume on another node.
     */
    public void stop() {
        stopping = true;
        registry.all().forEach(session -> closeByServer(session, CloseReasons.NODE_STOPPING));
    }

    public boolean stopping() {
        return stopping;
    }

    /** Whether every socket is closed and its end handled (its drop noted in the store). */
    public boolean allEnded() {
        return registry.size() == 0 && ending.get() == 0;
    }

    /**
     * @return how many dropped sockets may still be resumed: their resume record is there (a resume,
     *     here or on another node, spends it)
     */
    public Uni<Integer> awaitingResume() {
        List<Uni<Boolean>> checks = dropped.values().stream()
                .map(waiting -> resumes.awaitsResume(waiting.session()))
                .toList();
        return checks.isEmpty()
                ? Uni.createFrom().item(0)
                : Uni.join().all(checks).andFailFast().map(awaiting ->
                        (int) awaiting.stream().filter(Boolean::booleanValue).count());
    }

    /**
     * Ends the grace period of every dropped socket now and releases what it still keeps; a socket
     * resumed on another node keeps nothing any more, so that releases nothing. Every one of them leaves
     * its lines and take-over requests before any releases a lock: a page that one frees is then handed
     * to a waiter who stays, never for a moment to one who is leaving too (granted, then released).
     *
     * @return how many sockets it ended
     */
    public Uni<Integer> endEveryGrace() {
        List<SocketSession> ending = dropped.values().stream()
                .filter(waiting -> {
                    waiting.graceOver().set(true);
                    return dropped.remove(waiting.session().socketId(), waiting);
                })
                .map(Dropped::session)
                .toList();
        if (ending.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Uni.join()
                .all(ending.stream().map(this::leaveLines).toList())
                .andCollectFailures()
                .chain(() -> Uni.join()
                        .all(ending.stream().map(this::releaseNow).toList())
                        .andCollectFailures())
                .replaceWith(ending.size());
    }

    private Uni<Void> leaveLines(SocketSession session) {
        return locks.leaveLines(session.socketId())
                .onFailure()
                .invoke(failure -> LOG.debugf(
                        "socket %s did not leave its lines before its release: %s",
                        session.socketId(), failure.getMessage()))
                .onFailure()
                .recoverWithNull();
    }

    /**
     * @return what moved to this socket (its locks, its places in lines), or empty when the token cannot be resumed: unknown,
     *     spent, another user's, its socket still open, or nothing of it kept any more (its locks ended
     *     with their leases after its node died, or another of the user's sockets released them; docs/protocol.md
     *     §11); a failure (the store out of reach) leaves the token good for a retry and the old
     *     socket's grace period running
     */
    public Uni<Optional<MovedSocket>> resume(SocketSession session, String resumeToken) {
        return resumes.claim(resumeToken, session.identity().userId(), session.socketId())
                // The claim may have run after all, too late to be answered.
                .onFailure()
                .call(() -> giveBack(resumeToken, session, null))
                .flatMap(oldSocket -> {
                    if (oldSocket.isEmpty()) {
                        return Uni.createFrom().item(Optional.<MovedSocket>empty());
                    }
                    Dropped old = dropped.remove(oldSocket.get());
                    return beforeLockRequest(session)
                            .chain(() -> locks.moveSocket(oldSocket.get(), session.socketId(), node.id()))
                            .onFailure()
                            .call(() -> giveBack(resumeToken, session, old))
                            .call(() -> resumes.resumed(resumeToken).onFailure().recoverWithNull())
                            .invoke(moved -> moved.locks()
                                    .forEach(lock -> registry.watch(
                                            session, lock.resource().configuratorId())))
                            .map(moved -> moved.keptAnything() ? Optional.of(moved) : Optional.empty());
                });
    }

    /**
     * A resume that failed gives its claim back: the token is good again, and the old socket, if it
     * dropped from this node, waits out the rest of its grace period here again (or is released now,
     * when that ended meanwhile).
     */
    private Uni<Void> giveBack(String resumeToken, SocketSession session, Dropped old) {
        if (old != null) {
            String socketId = old.session().socketId();
            dropped.put(socketId, old);
            // Exactly one of this and endGrace releases it, whichever comes second sees the other's mark.
            if (old.graceOver().get() && dropped.remove(socketId, old)) {
                releaseNow(old.session()).subscribe().with(ignored -> {}, failure -> {});
            }
        }
        return resumes.giveBack(resumeToken, session.socketId())
                .onFailure()
                .invoke(failure -> LOG.debugf(
                        "resume token of socket %s not given back (it stays spent): %s",
                        session.socketId(), failure.getMessage()))
                .onFailure()
                .recoverWithNull();
    }

    public Collection<SocketSession> droppedSessions() {
        return dropped.values().stream().map(Dropped::session).toList();
    }

    /**
     * The server ends the socket (ping timeout, the node stops): that counts as a drop. Not a socket its
     * client closed already, whose end is still being handled (a request of it is in hand): its client's
     * close says how it ends (docs/protocol.md §5), a 1000 releasing at once.
     */
    public void closeByServer(SocketSession session, CloseReason reason) {
        if (!session.connection().isOpen()) {
            return;
        }
        session.closedByServer(true);
        session.connection().close(reason).subscribe().with(ignored -> {}, failure -> {});
    }

    private Uni<Void> releaseNow(SocketSession session) {
        return releases.release(session);
    }

    private Uni<Void> keepForGrace(SocketSession session, Duration grace) {
        Dropped waiting = new Dropped(session, new AtomicBoolean());
        dropped.put(session.socketId(), waiting);
        // A node that stops ends the graces of its sockets together, in order (endEveryGrace): each on its
        // own timer, a holder's release could hand a page to a waiter that is leaving too.
        if (!stopping) {
            vertx.setTimer(Math.max(1, grace.toMillis()), id -> endGrace(waiting));
        }
        return resumes.markDropped(session.resumeToken(), grace)
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    private void endGrace(Dropped waiting) {
        waiting.graceOver().set(true);
        if (!dropped.remove(waiting.session().socketId(), waiting)) {
            return; // resumed, or being resumed: a resume that fails releases it then (giveBack)
        }
        // A resume on another node moved the locks away: then this releases nothing.
        releaseNow(waiting.session()).subscribe().with(ignored -> {}, failure -> {});
    }

    /** A dropped socket waiting out its grace period, and whether that ended. */
    private record Dropped(SocketSession session, AtomicBoolean graceOver) {}
}
