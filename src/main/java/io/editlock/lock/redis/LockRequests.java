package io.editlock.lock.redis;

import io.editlock.lock.LockAudit;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The lock requests of this node: numbered in the order they start, and undone when the requester
 * was told one failed. Wait-for and request-takeover requests draw their numbers here too, so that
 * a number names one request of a socket, whatever its kind.
 */
@ApplicationScoped
public class LockRequests {

    private static final Logger LOG = Logger.getLogger(LockRequests.class);
    /**
     * How long a lock request the server gave up stays void in the store: longer than any command
     * can sit unread in a frozen Redis or a stuck failover before it runs.
     */
    public static final Duration VOID_REQUESTS_FOR = Duration.ofMinutes(10);

    private final LockScripts scripts;
    private final LockAudit audit;
    /** A request that starts later has a larger number. */
    private final AtomicLong requests = new AtomicLong();

    public LockRequests(LockScripts scripts, LockAudit audit) {
        this.scripts = scripts;
        this.audit = audit;
    }

    /** @return the number of a request that starts now */
    public long next() {
        return requests.incrementAndGet();
    }

    /** The number of the latest request: every later one has a larger number. */
    public long last() {
        return requests.get();
    }

    /**
     * Undoes a lock request the requester was told failed, until the store confirms it: a late grant
     * is released and announced, a request still waiting in Redis will do nothing when it runs.
     */
    public void giveBack(Resource resource, String socketId, long request) {
        scripts.cancelRequest(resource, socketId, request, ReleaseReason.UNLOCK, VOID_REQUESTS_FOR)
                .onFailure()
                .retry()
                .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5))
                .expireIn(VOID_REQUESTS_FOR.toMillis())
                .subscribe()
                .with(
                        audit::released,
                        failure -> LOG.warnf(
                                "lock request %d of socket %s could not be undone: %s",
                                request, socketId, failure.getMessage()));
    }
}
