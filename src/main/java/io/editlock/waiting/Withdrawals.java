package io.editlock.waiting;

import io.editlock.lock.Holder;
import io.editlock.lock.LockAudit;
import io.editlock.lock.Resource;
import io.editlock.lock.redis.LockRequests;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Wait-for and request-takeover requests whose requester was told UNAVAILABLE (docs/protocol.md §4):
 * undone in the store once it answers again, as {@link LockRequests#giveBack} undoes a lock request.
 * The script may have run after all, so the user's place in the line or their take-over request
 * goes, and a grant the line or the hand-over made by it meanwhile goes back, announced as usual.
 */
@ApplicationScoped
public class Withdrawals {

    private static final Logger LOG = Logger.getLogger(Withdrawals.class);

    private final WaitingScripts scripts;
    private final LockAudit audit;

    public Withdrawals(WaitingScripts scripts, LockAudit audit) {
        this.scripts = scripts;
        this.audit = audit;
    }

    /** @param resource with its configurator */
    public void waitFor(Resource resource, Holder holder, long request) {
        withdraw(WaitingScripts.Asked.WAIT_FOR, resource, holder, request);
    }

    /** @param resource with its configurator */
    public void takeover(Resource resource, Holder holder, long request) {
        withdraw(WaitingScripts.Asked.TAKEOVER, resource, holder, request);
    }

    private void withdraw(WaitingScripts.Asked asked, Resource resource, Holder holder, long request) {
        Duration voidFor = LockRequests.VOID_REQUESTS_FOR;
        scripts.withdraw(asked, resource, holder, request, voidFor)
                .onFailure()
                .retry()
                .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5))
                .expireIn(voidFor.toMillis())
                .subscribe()
                .with(
                        audit::released,
                        failure -> LOG.warnf(
                                "%s %d of socket %s could not be withdrawn: %s",
                                asked, request, holder.socketId(), failure.getMessage()));
    }
}
