package io.editlock.lock;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Collection;
import org.jboss.logging.Logger;

/**
 * Who got, was refused or lost which lock, and when: one audit line each (logger
 * {@code editlock.audit}) and the matching Prometheus meters. Each event is recorded once, by the
 * node that caused it (the reaper's node for expiries).
 */
@ApplicationScoped
public class LockAudit {

    private static final Logger AUDIT = Logger.getLogger("editlock.audit");

    private final MeterRegistry registry;
    private final Counter conflicts;

    public LockAudit(MeterRegistry registry) {
        this.registry = registry;
        this.conflicts = Counter.builder("editlock.lock.conflicts")
                .description("Lock requests and guarded writes refused because another user holds a conflicting lock")
                .register(registry);
    }

    /** @param outcome granted, refused, not_found, rate_limited or unavailable */
    public void acquireTook(String outcome, Duration took) {
        Timer.builder("editlock.lock.acquire")
                .description("Lock request latency on the server, by outcome")
                .tag("outcome", outcome).publishPercentileHistogram().register(registry).record(took);
    }

    public void granted(Lock lock, boolean reentry) {
        if (!reentry) {
            AUDIT.infof("grant resource=%s user=%s name=\"%s\" token=%d", lock.resource(), lock.ownerUserId(),
                    lock.ownerUserName(), lock.token());
        }
    }

    public void refused(Resource requested, String userId, Lock blocking) {
        conflicts.increment();
        AUDIT.infof("refuse resource=%s user=%s blocked-by=%s holder=%s", requested, userId, blocking.resource(),
                blocking.ownerUserId());
    }

    /** A guarded REST write refused: 423 (another user's lock) or 412 (stale fencing token). */
    public void writeRefused(int status, String what, String userId, String detail) {
        if (status == 423) {
            conflicts.increment();
        }
        AUDIT.infof("refuse-write status=%d target=%s user=%s %s", status, what, userId, detail);
    }

    public void released(Collection<ReleasedLock> releases) {
        releases.forEach(this::released);
    }

    public void released(ReleasedLock released) {
        Counter.builder("editlock.lock.releases").description("Locks released, by reason")
                .tag("reason", released.reason().wireName()).register(registry).increment();
        AUDIT.infof("release resource=%s user=%s reason=%s token=%d", released.lock().resource(),
                released.lock().ownerUserId(), released.reason().wireName(), released.lock().token());
    }

    public void brokenByAdmin(ReleasedLock released, String adminUserId) {
        AUDIT.infof("admin-break resource=%s holder=%s admin=%s", released.lock().resource(), released.lock().ownerUserId(),
                adminUserId);
    }
}
