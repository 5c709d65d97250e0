package io.editlock.lock;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Who got, was refused or lost which lock, and when: one audit line each (logger
 * {@code editlock.audit}) and the matching Prometheus meters. Each event is recorded once, by the
 * node that caused it (the reaper's node for expiries). This runs for every lock request: meters are
 * looked up once per tag value, and lines are built by concatenation (String.format would cost more
 * than the rest of a grant's bookkeeping).
 */
@ApplicationScoped
public class LockAudit {

    private static final Logger AUDIT = Logger.getLogger("editlock.audit");

    private final MeterRegistry registry;
    private final Counter conflicts;
    private final Map<String, Timer> acquireTimers = new ConcurrentHashMap<>();
    private final Map<ReleaseReason, Counter> releaseCounters = new ConcurrentHashMap<>();

    public LockAudit(MeterRegistry registry) {
        this.registry = registry;
        this.conflicts = Counter.builder("editlock.lock.conflicts")
                .description("Lock requests and guarded writes refused because another user holds a conflicting lock")
                .register(registry);
    }

    /** @param outcome granted, refused, not_found, rate_limited or unavailable */
    public void acquireTook(String outcome, Duration took) {
        acquireTimers.computeIfAbsent(outcome, tag -> Timer.builder("editlock.lock.acquire")
                .description("Lock request latency on the server, by outcome")
                .tag("outcome", tag).publishPercentileHistogram().register(registry)).record(took);
    }

    public void granted(Lock lock, boolean reentry) {
        if (!reentry && AUDIT.isInfoEnabled()) {
            AUDIT.info("grant resource=" + lock.resource() + " user=" + lock.ownerUserId() + " name=\"" + lock.ownerUserName()
                    + "\" token=" + lock.token());
        }
    }

    public void refused(Resource requested, String userId, Lock blocking) {
        conflicts.increment();
        if (AUDIT.isInfoEnabled()) {
            AUDIT.info("refuse resource=" + requested + " user=" + userId + " blocked-by=" + blocking.resource() + " holder="
                    + blocking.ownerUserId());
        }
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
        releaseCounters.computeIfAbsent(released.reason(), reason -> Counter.builder("editlock.lock.releases")
                .description("Locks released, by reason").tag("reason", reason.wireName()).register(registry)).increment();
        if (AUDIT.isInfoEnabled()) {
            AUDIT.info("release resource=" + released.lock().resource() + " user=" + released.lock().ownerUserId() + " reason="
                    + released.reason().wireName() + " token=" + released.lock().token());
        }
    }

    public void brokenByAdmin(ReleasedLock released, String adminUserId) {
        AUDIT.infof("admin-break resource=%s holder=%s admin=%s", released.lock().resource(), released.lock().ownerUserId(),
                adminUserId);
    }
}
