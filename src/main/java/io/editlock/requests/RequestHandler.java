package io.editlock.requests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.config.EditlockConfig;
import io.editlock.limits.FrameRate;
import io.editlock.limits.WatchQuota;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.LockAudit;
import io.editlock.lock.LockService;
import io.editlock.protocol.ClientRequest;
import io.editlock.protocol.ServerEvents;
import io.editlock.protocol.WireFormat;
import java.time.Duration;
import io.editlock.session.RateLimiter;
import io.editlock.session.SessionLifecycle;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.editlock.session.TokenLifetime;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Answers every client request with exactly one direct reply, in the same order for each: validate
 * (done by the decoder) → refuse clearly → act → reply. Broadcasts come back through pub/sub.
 * Every failure becomes a reply: no exception ever reaches the socket (it would close it with 1011).
 */
@ApplicationScoped
public class RequestHandler {

    private static final Logger LOG = Logger.getLogger(RequestHandler.class);

    private final LockService locks;
    private final ConfiguratorStore catalog;
    private final SessionRegistry registry;
    private final SessionLifecycle lifecycle;
    private final RateLimiter rateLimiter;
    private final int lockRequestsPerSecond;
    private final LockAudit audit;
    @jakarta.inject.Inject
    WaitingRequests waitingRequests;
    @jakarta.inject.Inject
    io.editlock.waiting.WaitingState waitingState;
    private final TokenLifetime tokenLifetime;
    private final FrameRate frameRate;
    private final WatchQuota watchQuota;

    public RequestHandler(LockService locks, ConfiguratorStore catalog, SessionRegistry registry, SessionLifecycle lifecycle,
            RateLimiter rateLimiter, EditlockConfig config, LockAudit audit, TokenLifetime tokenLifetime, FrameRate frameRate,
            WatchQuota watchQuota) {
        this.audit = audit;
        this.tokenLifetime = tokenLifetime;
        this.frameRate = frameRate;
        this.watchQuota = watchQuota;
        this.locks = locks;
        this.catalog = catalog;
        this.registry = registry;
        this.lifecycle = lifecycle;
        this.rateLimiter = rateLimiter;
        this.lockRequestsPerSecond = config.rateLimit().lockRequestsPerSecond();
    }

    /** The first frame of every socket, before any request. */
    public String welcome(SocketSession session) {
        return WireFormat.welcome(session.socketId(), session.identity().userId(), session.identity().userName(),
                session.resumeToken());
    }

    public Uni<String> handle(SocketSession session, ClientRequest request) {
        if (!countsAsLockRequest(request) && !frameRate.allow(session)) {
            return reply(WireFormat.frame(ServerEvents.ERROR, WireFormat.error("RATE_LIMITED",
                    "More than " + frameRate.perSecond() + " requests a second on this socket; this one was not processed"),
                    request.ref()));
        }
        if (request instanceof ClientRequest.Invalid invalid) {
            return reply(WireFormat.frame(ServerEvents.ERROR, WireFormat.error("BAD_REQUEST", invalid.message()), invalid.ref()));
        }
        if (request instanceof ClientRequest.Reauth reauth) {
            // Not a sign of the user: a client renews its token by itself, also while its user is away (§6).
            return reply(reauth(session, reauth));
        }
        // Idleness is the user's, not the socket's (docs/protocol.md §6: "a user who has sent nothing"):
        // a request in one tab keeps the locks of the user's quiet tabs on this node too.
        registry.socketsOf(session.identity().userId()).forEach(SocketSession::markActive);
        if (request instanceof ClientRequest.Lock lock) {
            return lock(session, lock);
        }
        if (request instanceof ClientRequest.Unlock unlock) {
            return unlock(session, unlock);
        }
        if (request instanceof ClientRequest.Watch watch) {
            return watch(session, watch);
        }
        if (request instanceof ClientRequest.Unwatch unwatch) {
            registry.unwatch(session, unwatch.configuratorId());
            ObjectNode data = WireFormat.object().put("configuratorId", unwatch.configuratorId());
            return reply(WireFormat.frame(ServerEvents.UNWATCHED, data, unwatch.ref()));
        }
        if (request instanceof ClientRequest.Resume resume) {
            return resume(session, resume);
        }
        Uni<String> waiting = waitingRequests.handle(session, request);
        if (waiting != null) {
            return waiting;
        }
        return reply(WireFormat.frame(ServerEvents.TOUCHED, WireFormat.object(), request.ref()));
    }

    /** Lock requests have the user's own rate; every other request the socket's frame rate (docs/protocol.md §4, §11). */
    private static boolean countsAsLockRequest(ClientRequest request) {
        return request instanceof ClientRequest.Lock;
    }

    private Uni<String> lock(SocketSession session, ClientRequest.Lock request) {
        long started = System.nanoTime();
        // Joined before the grant (when the configurator is known), so that no change right after the
        // grant is missed; left again when nothing was granted and it did not watch before.
        Long known = request.resource().configuratorId();
        boolean joined = known != null && registry.watch(session, known);
        return rateLimiter.allowLockRequest(session.identity().userId())
                .flatMap(allowed -> {
                    if (!allowed) {
                        audit.acquireTook("rate_limited", Duration.ofNanos(System.nanoTime() - started));
                        return Uni.createFrom().<AcquireResult>nullItem();
                    }
                    return lifecycle.beforeLockRequest(session).chain(() -> locks.acquire(request.resource(), session.holder()));
                })
                .map(result -> {
                    if (result instanceof AcquireResult.Granted granted) {
                        registry.watch(session, granted.lock().resource().configuratorId());
                    } else if (joined) {
                        registry.unwatch(session, known);
                    }
                    if (result == null) {
                        return LockReplies.rateLimited(request.resource(), lockRequestsPerSecond, request.ref());
                    }
                    audit.acquireTook(outcome(result), Duration.ofNanos(System.nanoTime() - started));
                    return LockReplies.of(result, request.ref());
                })
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("lock request failed: %s", failure.getMessage());
                    if (joined) {
                        registry.unwatch(session, known);
                    }
                    audit.acquireTook("unavailable", Duration.ofNanos(System.nanoTime() - started));
                    return LockReplies.unavailable(request.resource(), request.ref());
                });
    }

    private static String outcome(AcquireResult result) {
        if (result instanceof AcquireResult.Granted) {
            return "granted";
        }
        return result instanceof AcquireResult.Refused ? "refused" : "not_found";
    }

    private Uni<String> unlock(SocketSession session, ClientRequest.Unlock request) {
        return locks.release(request.resource(), session.identity().userId(), session.socketId())
                .map(result -> LockReplies.of(result, request.ref()))
                .onFailure().recoverWithItem(failure -> LockReplies.unlockUnavailable(request.resource(), request.ref()));
    }

    private Uni<String> watch(SocketSession session, ClientRequest.Watch request) {
        long configuratorId = request.configuratorId();
        if (!watchQuota.admits(session, configuratorId)) {
            return reply(WireFormat.frame(ServerEvents.ERROR, WireFormat.error("LIMIT_EXCEEDED",
                    "This socket already watches " + watchQuota.perSocket() + " configurators, the most allowed; unwatch one first"),
                    request.ref()));
        }
        return catalog.configuratorExists(configuratorId).flatMap(exists -> {
            if (!exists) {
                return reply(WireFormat.frame(ServerEvents.ERROR,
                        WireFormat.error("NOT_FOUND", "No configurator " + configuratorId), request.ref()));
            }
            // Joined before reading, so that no change between the read and the join is missed.
            registry.watch(session, configuratorId);
            return waitingState.refresh(configuratorId).chain(() -> locks.locks(configuratorId)).map(current -> {
                ObjectNode data = WireFormat.object().put("configuratorId", configuratorId);
                data.set("locks", WireFormat.locks(current, false));
                waitingState.decorate(data, configuratorId);
                return WireFormat.frame(ServerEvents.LOCK_UPDATED, data, request.ref());
            });
        }).onFailure().recoverWithItem(failure -> WireFormat.frame(ServerEvents.ERROR,
                WireFormat.error("UNAVAILABLE", "The lock store cannot be reached"), request.ref()));
    }

    private Uni<String> resume(SocketSession session, ClientRequest.Resume request) {
        return lifecycle.resume(session, request.resumeToken()).map(moved -> {
            if (moved.isEmpty()) {
                return WireFormat.frame(ServerEvents.ERROR, WireFormat.error("RESUME_FAILED",
                        "This resumeToken cannot be resumed (unknown, expired, used, another user's, or its socket is still open)"),
                        request.ref());
            }
            ObjectNode data = WireFormat.object();
            data.set("locks", WireFormat.locks(moved.get(), true));
            return WireFormat.frame(ServerEvents.RESUMED, data, request.ref());
        }).onFailure().recoverWithItem(failure -> WireFormat.frame(ServerEvents.ERROR,
                WireFormat.error("UNAVAILABLE", "The lock store cannot be reached"), request.ref()));
    }

    private String reauth(SocketSession session, ClientRequest.Reauth request) {
        return tokenLifetime.renew(session, request.accessToken())
                .map(expiresAt -> WireFormat.frame(ServerEvents.REAUTHED,
                        WireFormat.object().put("expiresAt", expiresAt.toString()), request.ref()))
                .orElseGet(() -> WireFormat.frame(ServerEvents.ERROR, WireFormat.error("UNAUTHORIZED",
                        "This token cannot renew the socket (invalid, expired, or another user's); the socket keeps its token"),
                        request.ref()));
    }

    private static Uni<String> reply(String frame) {
        return Uni.createFrom().item(frame);
    }
}
