package io.editlock.requests;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.LockService;
import io.editlock.lock.Resource;
import io.editlock.session.SocketSession;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * An unlock answered UNAVAILABLE is carried out all the same once the store answers (docs/protocol.md
 * §4). Its client may well take {@code unlock-failed} as "not mine any more" and close the editor: the
 * page must not stay held, and renewed, for as long as the socket lives. The release is tried again ten
 * times a second, for at most two lease TTLs (by then the lease has ended by itself); a later request of
 * the socket for the page (to lock it, wait for it, ask for it, or unlock it again) says what the user
 * wants now, and ends the retry. The socket hears the release as {@code lock-lost}, reason
 * {@code unlock}, as for an unlock whose answer came late.
 */
@ApplicationScoped
public class UnlockRetries {

    private static final Logger LOG = Logger.getLogger(UnlockRetries.class);
    private static final Duration EVERY = Duration.ofMillis(100);

    private final LockService locks;
    private final Duration giveUpAfter;
    /** By socket and page: the retry under way. */
    private final Map<String, Attempt> pending = new ConcurrentHashMap<>();

    public UnlockRetries(LockService locks, EditlockConfig config) {
        this.locks = locks;
        this.giveUpAfter = config.lease().ttl().multipliedBy(2);
    }

    /** The unlock of {@code page} by this socket was answered UNAVAILABLE: it is tried again. */
    void retry(SocketSession session, Resource page) {
        String key = key(session.socketId(), page);
        Attempt attempt = new Attempt();
        // Listed before it runs: one that ends at once then takes itself off, and leaves nothing behind.
        Attempt previous = pending.put(key, attempt);
        if (previous != null) {
            previous.cancel();
        }
        attempt.running = Uni.createFrom()
                .deferred(() -> !attempt.cancelled && session.connection().isOpen()
                        ? locks.release(page, session.identity().userId(), session.socketId())
                                .replaceWithVoid()
                        // Asked for again, or the socket ended: its locks are released with it (SocketReleases).
                        : Uni.createFrom().voidItem())
                .onFailure()
                .retry()
                .withBackOff(EVERY, EVERY)
                .expireIn(giveUpAfter.toMillis())
                .subscribe()
                .with(done -> pending.remove(key, attempt), failure -> {
                    pending.remove(key, attempt);
                    LOG.debugf(
                            "gave up the unlock of %s by socket %s: %s",
                            page, session.socketId(), failure.getMessage());
                });
    }

    /** The socket asks for the page again: what it wants now replaces the unlock it asked for before. */
    void stop(String socketId, Resource page) {
        if (pending.isEmpty()) {
            return;
        }
        Attempt running = pending.remove(key(socketId, page));
        if (running != null) {
            running.cancel();
        }
    }

    private static String key(String socketId, Resource page) {
        return socketId + " " + page.canonical();
    }

    /** One retry: an older one that ends does not take a newer one's place away. */
    private static final class Attempt implements Cancellable {
        private volatile Cancellable running;
        private volatile boolean cancelled;

        @Override
        public void cancel() {
            cancelled = true;
            Cancellable subscribed = running;
            if (subscribed != null) {
                subscribed.cancel();
            }
        }
    }
}
