package io.editlock.requests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.limits.FrameRate;
import io.editlock.limits.SharedRateLimit;
import io.editlock.limits.UserRates;
import io.editlock.limits.Verdict;
import io.editlock.limits.WatchQuota;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.Lock;
import io.editlock.lock.LockAudit;
import io.editlock.lock.LockService;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.editlock.protocol.ClientRequest;
import io.editlock.protocol.ServerEvents;
import io.editlock.protocol.WireFormat;
import io.editlock.session.FrameSender;
import io.editlock.session.HeldLocks;
import io.editlock.session.SessionLifecycle;
import io.editlock.session.SessionRegistry;
import io.editlock.session.ShownLocks;
import io.editlock.session.SocketSession;
import io.editlock.session.TokenLifetime;
import io.editlock.session.UserActivity;
import io.editlock.waiting.WaitEventRelay;
import io.editlock.waiting.WaitingState;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Answers every client request with exactly one direct reply, in the same order for each: validate
 * (done by the decoder) → refuse clearly → act → reply. Broadcasts come back through pub/sub.
 * Every failure becomes a reply: no exception ever reaches the socket (it would close it with 1011).
 * The same for every transport: a {@code /locking} WebSocket and a Socket.IO socket.
 */
@ApplicationScoped
public class RequestHandler {

    private static final Logger LOG = Logger.getLogger(RequestHandler.class);

    private final LockService locks;
    private final ConfiguratorStore catalog;
    private final SessionRegistry registry;
    private final SessionLifecycle lifecycle;
    private final SharedRateLimit lockRequestRate;
    private final LockAudit audit;
    private final WaitingRequests waitingRequests;
    private final WaitingState waitingState;
    private final TokenLifetime tokenLifetime;
    private final FrameRate frameRate;
    private final WatchQuota watchQuota;
    private final UserActivity activity;
    private final WaitEventRelay waitEvents;
    private final ShownLocks shown;
    private final FrameSender sender;

    public RequestHandler(
            LockService locks,
            ConfiguratorStore catalog,
            SessionRegistry registry,
            SessionLifecycle lifecycle,
            UserRates rates,
            LockAudit audit,
            WaitingRequests waitingRequests,
            WaitingState waitingState,
            TokenLifetime tokenLifetime,
            FrameRate frameRate,
            WatchQuota watchQuota,
            UserActivity activity,
            WaitEventRelay waitEvents,
            ShownLocks shown,
            FrameSender sender) {
        this.locks = locks;
        this.sender = sender;
        this.shown = shown;
        this.catalog = catalog;
        this.registry = registry;
        this.lifecycle = lifecycle;
        this.lockRequestRate = rates.lockRequests();
        this.audit = audit;
        this.waitingRequests = waitingRequests;
        this.waitingState = waitingState;
        this.tokenLifetime = tokenLifetime;
        this.frameRate = frameRate;
        this.watchQuota = watchQuota;
        this.activity = activity;
        this.waitEvents = waitEvents;
    }

    /** The first frame of every socket, before any request. */
    public String welcome(SocketSession session) {
        return WireFormat.welcome(
                session.socketId(),
                session.identity().userId(),
                session.identity().userName(),
                session.resumeToken());
    }

    /**
     * A request's direct reply, and the grants it tells the client of (docs/protocol.md §2): they are
     * noted as held when the reply is written ({@link #deliver}).
     *
     * @param askedAt when the request came ({@link System#nanoTime()}): an end of a grant heard since is
     *     one the client heard before the reply
     */
    public record Answer(String reply, List<Lock> grants, long askedAt, Resource unlockUnavailable) {

        public Answer(String reply, List<Lock> grants, long askedAt) {
            this(reply, grants, askedAt, null);
        }

        static Answer of(String reply) {
            return new Answer(reply, List.of(), 0);
        }

        /** An unlock of {@code resource} answered UNAVAILABLE, which its release may still follow. */
        static Answer unlockUnavailable(String reply, Resource resource) {
            return new Answer(reply, List.of(), 0, resource);
        }
    }

    /**
     * Writes the answer with {@code writeReply}, noting its grants in the socket's {@link HeldLocks} at
     * the same moment, under the monitor that the end of a grant is told under too: the client hears
     * of a grant and of its end in the order the node noted them. A grant whose end was heard before
     * (broken, handed over, released by another socket of the user while its reply was on its way) had
     * its {@code lock-lost} sent before the reply, when the client could only ignore it: it is sent
     * again after the reply (docs/protocol.md §4).
     */
    public void deliver(SocketSession session, Answer answer, Consumer<String> writeReply) {
        Resource unlocked = answer.unlockUnavailable();
        if (unlocked != null) {
            // The script may have run in time and only its answer come late: its release is told after the reply.
            session.heldLocks()
                    .unlockUnavailable(
                            unlocked,
                            () -> writeReply.accept(answer.reply()),
                            released -> sender.send(session, WireFormat.lockLost(released, ReleaseReason.UNLOCK)));
            return;
        }
        if (answer.grants().isEmpty()) {
            writeReply.accept(answer.reply());
            return;
        }
        HeldLocks held = session.heldLocks();
        synchronized (held) {
            List<String> endedFirst = new ArrayList<>(0);
            for (Lock grant : answer.grants()) {
                held.granted(grant, answer.askedAt())
                        .ifPresent(reason -> endedFirst.add(WireFormat.lockLost(grant.resource(), reason)));
            }
            writeReply.accept(answer.reply());
            endedFirst.forEach(frame -> sender.send(session, frame));
        }
    }

    public Uni<Answer> handle(SocketSession session, ClientRequest request) {
        if (request instanceof ClientRequest.Lock lock) {
            // Lock requests have the user's own rate, not the socket's frame rate (docs/protocol.md §4, §11).
            activity.active(session);
            return lock(session, lock);
        }
        if (!frameRate.allow(session.connection().userData())) {
            return answer(refuse(new SocketError.FrameRateExceeded(frameRate.perSecond()), request.ref()));
        }
        if (request instanceof ClientRequest.Invalid invalid) {
            return answer(refuse(new SocketError.BadRequest(invalid.message()), invalid.ref()));
        }
        if (request instanceof ClientRequest.Reauth reauth) {
            // Not a sign of the user: a client renews its token by itself, also while its user is away (§6).
            return answer(reply(reauth(session, reauth)));
        }
        activity.active(session);
        if (request instanceof ClientRequest.Resume resume) {
            return resume(session, resume);
        }
        if (request instanceof ClientRequest.Unlock unlock) {
            return unlock(session, unlock);
        }
        Uni<Answer> waiting = waitingRequests.handle(session, request);
        if (waiting != null) {
            return waiting;
        }
        return answer(other(session, request));
    }

    private Uni<String> other(SocketSession session, ClientRequest request) {
        if (request instanceof ClientRequest.Watch watch) {
            return watch(session, watch);
        }
        if (request instanceof ClientRequest.Unwatch unwatch) {
            session.askedToWatch().remove(unwatch.configuratorId());
            registry.unwatch(session, unwatch.configuratorId());
            ObjectNode data = WireFormat.object().put("configuratorId", unwatch.configuratorId());
            return reply(WireFormat.frame(ServerEvents.UNWATCHED, data, unwatch.ref()));
        }
        return reply(WireFormat.frame(ServerEvents.TOUCHED, WireFormat.object(), request.ref()));
    }

    private Uni<Answer> lock(SocketSession session, ClientRequest.Lock request) {
        long started = System.nanoTime();
        return lockRequestRate
                .allow(session.identity().userId())
                .flatMap(verdict -> verdict == Verdict.ALLOWED
                        ? acquire(session, request)
                        : Uni.createFrom().<LockOutcome>item(new LockOutcome.RateLimited(lockRequestRate.perSecond())))
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.debugf("lock request failed: %s", failure.getMessage());
                    return new LockOutcome.Unavailable(null);
                })
                .map(outcome -> {
                    audit.acquireTook(outcome.auditName(), Duration.ofNanos(System.nanoTime() - started));
                    String reply = LockReplies.of(outcome, request.resource(), request.ref());
                    return outcome instanceof LockOutcome.Decided decided
                                    && decided.result() instanceof AcquireResult.Granted granted
                            ? told(session, granted, reply, started)
                            : Answer.of(reply);
                });
    }

    /**
     * What the reply tells the client it holds now, and holds no more (docs/protocol.md §2): every
     * grant a reply carries, also that of a {@code wait-for} that found the page free.
     */
    static Answer told(SocketSession session, AcquireResult.Granted granted, String reply, long askedAt) {
        HeldLocks held = session.heldLocks();
        granted.released().forEach(held::ended);
        return new Answer(reply, List.of(granted.lock()), askedAt);
    }

    private Uni<LockOutcome> acquire(SocketSession session, ClientRequest.Lock request) {
        // The resume record goes out beside the request rather than a round trip before it: its failure
        // never fails the request (the socket is then only not resumable), and the reply still waits for
        // it, so a socket told of a grant has its record written or knows it has none.
        Uni<Void> recorded = lifecycle.beforeLockRequest(session);
        Uni<LockOutcome> decided = locks.resolve(request.resource())
                .chain(resolved -> resolved.isPresent()
                        ? acquireInRoom(session, resolved.get())
                                .<LockOutcome>map(LockOutcome.Decided::new)
                                .onFailure()
                                .recoverWithItem(failure -> {
                                    LOG.debugf("lock request failed: %s", failure.getMessage());
                                    return new LockOutcome.Unavailable(resolved.get());
                                })
                        : Uni.createFrom()
                                .item(new LockOutcome.Decided(new AcquireResult.NotFound(request.resource()))));
        return Uni.combine().all().unis(recorded, decided).with((ignored, outcome) -> outcome);
    }

    private Uni<AcquireResult> acquireInRoom(SocketSession session, Resource resolved) {
        SessionRegistry.LockRoom room = registry.joinForLock(session, resolved);
        return locks.acquire(resolved, session.holder())
                .invoke(result -> {
                    if (!(result instanceof AcquireResult.Granted)) {
                        room.notGranted();
                    }
                })
                .onFailure()
                .invoke(room::notGranted);
    }

    /**
     * An unlock answered UNAVAILABLE may have been carried out all the same (its script ran in time, its
     * answer came late): the socket is then told of the release when the node hears it (docs/protocol.md
     * §4), which {@link HeldLocks#unlockAsked} makes possible.
     */
    private Uni<Answer> unlock(SocketSession session, ClientRequest.Unlock request) {
        session.heldLocks().unlockAsked(request.resource());
        return locks.release(request.resource(), session.identity().userId(), session.socketId())
                .map(result -> {
                    HeldLocks held = session.heldLocks();
                    if (result instanceof ReleaseResult.Released released) {
                        Lock lock = released.released().lock();
                        held.ended(lock.resource(), lock.token(), ReleaseReason.UNLOCK);
                        held.ended(lock.resource()); // the reply frees the page, whichever grant it was
                        shown.toldByReply(lock.resource().configuratorId(), lock, session.socketId());
                    } else {
                        held.unlockAnswered(request.resource());
                    }
                    return Answer.of(LockReplies.of(result, request.ref()));
                })
                .onFailure()
                .recoverWithItem(failure -> Answer.unlockUnavailable(
                        LockReplies.unlockUnavailable(request.resource(), request.ref()), request.resource()));
    }

    private Uni<String> watch(SocketSession session, ClientRequest.Watch request) {
        long configuratorId = request.configuratorId();
        if (!watchQuota.admits(session.askedToWatch(), session.watched(), configuratorId)) {
            return refuse(new SocketError.WatchLimitReached(watchQuota.perSocket()), request.ref());
        }
        return catalog.configuratorExists(configuratorId)
                .flatMap(exists -> {
                    if (!exists) {
                        return refuse(new SocketError.NoConfigurator(configuratorId), request.ref());
                    }
                    // Joined before reading, so that no change between the read and the join is missed.
                    // One it watches for a lock it holds there does not count (docs/protocol.md §4), nor does it
                    // once the lock ends: that watch lasts until an unwatch, as any that came with a lock.
                    boolean forItsLock = session.heldLocksIfAny()
                            .map(held -> held.anyIn(configuratorId))
                            .orElse(false);
                    if (!forItsLock && watchQuota.roomFor(session.askedToWatch())) {
                        session.askedToWatch().add(configuratorId);
                    }
                    registry.watch(session, configuratorId);
                    return waitingState
                            .refresh(configuratorId)
                            .chain(() -> locks.locks(configuratorId))
                            .map(current -> {
                                shown.answered(configuratorId, current);
                                ObjectNode data = WireFormat.object().put("configuratorId", configuratorId);
                                data.set("locks", WireFormat.locks(current, false));
                                waitingState.decorate(data, configuratorId);
                                return WireFormat.frame(ServerEvents.LOCK_UPDATED, data, request.ref());
                            });
                })
                .onFailure()
                .recoverWithItem(failure -> SocketError.frame(new SocketError.StoreUnreachable(), request.ref()));
    }

    private Uni<Answer> resume(SocketSession session, ClientRequest.Resume request) {
        long asked = System.nanoTime();
        WaitingState.Resuming resuming =
                waitingState.resuming(session.identity().userId());
        return lifecycle
                .resume(session, request.resumeToken())
                .onFailure()
                .invoke(() -> waitingState.notResuming(resuming))
                .map(moved -> {
                    if (moved.isEmpty()) {
                        waitingState.notResuming(resuming);
                        return Answer.of(SocketError.frame(new SocketError.ResumeFailed(), request.ref()));
                    }
                    List<Lock> locks = moved.get().locks();
                    waitEvents.resumed(session, resuming, moved.get());
                    ObjectNode data = WireFormat.object();
                    data.set("locks", WireFormat.locks(locks, true));
                    return new Answer(WireFormat.frame(ServerEvents.RESUMED, data, request.ref()), locks, asked);
                })
                .onFailure()
                .recoverWithItem(
                        failure -> Answer.of(SocketError.frame(new SocketError.StoreUnreachable(), request.ref())));
    }

    private String reauth(SocketSession session, ClientRequest.Reauth request) {
        return tokenLifetime
                .renew(session, request.accessToken())
                .map(expiresAt -> WireFormat.frame(
                        ServerEvents.REAUTHED,
                        WireFormat.object().put("expiresAt", expiresAt.toString()),
                        request.ref()))
                .orElseGet(() -> SocketError.frame(new SocketError.ReauthRefused(), request.ref()));
    }

    private static Uni<Answer> answer(Uni<String> reply) {
        return reply.map(Answer::of);
    }

    private static Uni<String> refuse(SocketError error, String ref) {
        return reply(SocketError.frame(error, ref));
    }

    private static Uni<String> reply(String frame) {
        return Uni.createFrom().item(frame);
    }
}
