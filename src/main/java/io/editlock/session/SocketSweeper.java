package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.LockService;
import io.editlock.protocol.CloseReasons;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;

/**
 * Looks at this node's sockets: one whose token ended is closed ({@link TokenLifetime}); a user idle past the idle timeout loses the locks of that socket
 * (reason idle); a socket that answered no ping within the ping timeout is dropped (dead peer: a
 * closed laptop sends no close frame, so {@code @OnClose} alone would never come). Also keeps this
 * node's heartbeat ({@link NodeHeartbeat}).
 */
@ApplicationScoped
public class SocketSweeper {

    private final SessionRegistry registry;
    private final SessionLifecycle lifecycle;
    private final TokenLifetime tokenLifetime;
    private final LockService locks;
    private final NodeHeartbeat heartbeat;
    private final UserActivity activity;
    private final long idleTimeoutNanos;
    private final long pingTimeoutNanos;

    public SocketSweeper(
            SessionRegistry registry,
            SessionLifecycle lifecycle,
            TokenLifetime tokenLifetime,
            LockService locks,
            NodeHeartbeat heartbeat,
            UserActivity activity,
            EditlockConfig config) {
        this.registry = registry;
        this.lifecycle = lifecycle;
        this.tokenLifetime = tokenLifetime;
        this.locks = locks;
        this.heartbeat = heartbeat;
        this.activity = activity;
        this.idleTimeoutNanos = config.session().idleTimeout().toNanos();
        this.pingTimeoutNanos = config.websocket().pingTimeout().toNanos();
    }

    @Scheduled(
            every = "${editlock.session.sweep-interval:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void sweep() {
        heartbeat.beat();
        long nowMillis = System.currentTimeMillis();
        for (SocketSession session : registry.all()) {
            // Read before the idleness: a lock request after this has a larger number and survives.
            long decidedAt = locks.lastRequest();
            if (session.closedByServer()) {
                continue; // closing already: its close handshake may take a while with a dead peer
            }
            if (tokenLifetime.endIfExpired(session, nowMillis)) {
                continue;
            }
            if (!session.connection().hasOwnHeartbeat() && session.sincePongNanos() > pingTimeoutNanos) {
                lifecycle.closeByServer(session, CloseReasons.PING_TIMEOUT);
            } else if (session.mayKeepLocks() && session.idleNanos() > idleTimeoutNanos) {
                releaseIfIdleEverywhere(session, decidedAt);
            }
        }
    }

    /**
     * Idle here, so decided idle (a lock granted after {@code decidedAt} is spared); unless the user is
     * at work on another node (docs/protocol.md §6), which the store knows: then the socket keeps its
     * locks and counts as active since then.
     */
    private void releaseIfIdleEverywhere(SocketSession session, long decidedAt) {
        session.mayKeepLocks(false);
        if (session.idleNanos() <= idleTimeoutNanos) {
            // A request came between the look and the flag (it marks the socket active before it may
            // keep locks): had the flag stayed down, nothing would renew what that request is granted.
            session.mayKeepLocks(true);
            return;
        }
        activity.activityElsewhere(session.identity().userId())
                .onFailure()
                // The store is out of reach: the release cannot run either, and says so.
                .recoverWithItem(Optional.empty())
                .subscribe()
                .with(ago -> {
                    long agoNanos = ago.map(millis -> Duration.ofMillis(millis).toNanos())
                            .orElse(Long.MAX_VALUE);
                    if (agoNanos < idleTimeoutNanos) {
                        session.markActiveAgo(agoNanos);
                        session.mayKeepLocks(true);
                        return;
                    }
                    locks.releaseIdle(session.socketId(), decidedAt)
                            .subscribe()
                            .with(ignored -> {}, failure -> session.mayKeepLocks(true));
                });
    }
}
