package io.editlock.lock;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Who got, was refused or lost which lock, and when: one audit line each (logger
 * {@code editlock.audit}) and the matching Prometheus meters. Each event is recorded once, by the
 * node that caused it (the reaper's node for expiries). This runs for every lock request: meters are
 * looked up once per tag value, and lines are built by concatenation (String.format would cost more
 * than the rest of a grant's bookkeeping). Lines are handed to the logger in batches, every
 * {@value #BATCH_MS} ms by a thread of their own and at shutdown: handing each line over on its own
 * woke the log writer once per line, which cost the event loop more than building the line. Every
 * value a user can choose (ids and names come from tokens, paths and headers from requests) goes
 * through {@link AuditText#quote}: no user can write a line of the audit log, nor a field of one.
 */
@ApplicationScoped
@Startup // its meters are there from the start, at 0, before the first event they count
public class LockAudit {

    private static final Logger AUDIT = Logger.getLogger("editlock.audit");
    static final long BATCH_MS = 10;
    /** The {@code outcome} tags of the acquire timer, each there from the start. */
    public static final List<String> ACQUIRE_OUTCOMES =
            List.of("granted", "refused", "not_found", "limit_exceeded", "rate_limited", "unavailable");

    private final MeterRegistry registry;
    private final Counter conflicts;
    private final Map<String, Timer> acquireTimers = new ConcurrentHashMap<>();
    private final Map<ReleaseReason, Counter> releaseCounters = new ConcurrentHashMap<>();
    /** Lines not yet handed to the logger, in the order they were recorded. */
    private final Queue<String> pending = new ConcurrentLinkedQueue<>();

    private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "editlock-audit");
        thread.setDaemon(true);
        return thread;
    });

    public LockAudit(MeterRegistry registry) {
        this.registry = registry;
        this.conflicts = Counter.builder("editlock.lock.conflicts")
                .description("Lock requests and guarded writes refused because another user holds a conflicting lock")
                .register(registry);
        // Every reason from the start, at 0: a rate over a series that appears only at its first
        // release reads as no data, not as none released.
        for (ReleaseReason reason : ReleaseReason.values()) {
            releaseCounter(reason);
        }
        for (String outcome : ACQUIRE_OUTCOMES) {
            acquireTimer(outcome);
        }
        writer.scheduleWithFixedDelay(this::flush, BATCH_MS, BATCH_MS, TimeUnit.MILLISECONDS);
    }

    /** Every line recorded so far goes to the logger before the node stops. */
    @PreDestroy
    void stop() {
        writer.shutdown();
        try {
            writer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flush();
    }

    private void flush() {
        for (String line = pending.poll(); line != null; line = pending.poll()) {
            AUDIT.info(line);
        }
    }

    /** A line of another part of the server (take-overs, waiting lines), in the same order and batches as these. */
    public void write(String line) {
        if (AUDIT.isInfoEnabled()) {
            pending.add(line);
        }
    }

    /** @param outcome one of {@link #ACQUIRE_OUTCOMES} */
    public void acquireTook(String outcome, Duration took) {
        acquireTimer(outcome).record(took);
    }

    private Timer acquireTimer(String outcome) {
        return acquireTimers.computeIfAbsent(
                outcome,
                tag -> Timer.builder("editlock.lock.acquire")
                        .description("Lock request latency on the server, by outcome")
                        .tag("outcome", tag)
                        .publishPercentileHistogram()
                        .register(registry));
    }

    public void granted(Lock lock, boolean reentry) {
        if (!reentry && AUDIT.isInfoEnabled()) {
            pending.add("grant resource=" + lock.resource() + " user=" + AuditText.quote(lock.ownerUserId()) + " name="
                    + AuditText.quote(lock.ownerUserName()) + " token=" + lock.token());
        }
    }

    public void refused(Resource requested, String userId, Lock blocking) {
        conflicts.increment();
        if (AUDIT.isInfoEnabled()) {
            pending.add("refuse resource=" + requested + " user=" + AuditText.quote(userId) + " blocked-by="
                    + blocking.resource() + " holder=" + AuditText.quote(blocking.ownerUserId()));
        }
    }

    /**
     * A REST write refused: 423 (another user's lock), 412 (stale fencing token), 403 (not allowed).
     *
     * @param target the method and path, as the client sent them
     * @param detail {@code key=value} pairs whose user-supplied values went through {@link AuditText#quote}
     */
    public void writeRefused(int status, String target, String userId, String detail) {
        if (status == 423) {
            conflicts.increment();
        }
        if (AUDIT.isInfoEnabled()) {
            pending.add("refuse-write status=" + status + " target=" + AuditText.quote(target) + " user="
                    + AuditText.quote(userId) + " " + detail);
        }
    }

    private Counter releaseCounter(ReleaseReason reason) {
        return releaseCounters.computeIfAbsent(
                reason,
                key -> Counter.builder("editlock.lock.releases")
                        .description("Locks released, by reason")
                        .tag("reason", key.wireName())
                        .register(registry));
    }

    public void released(Collection<ReleasedLock> releases) {
        releases.forEach(this::released);
    }

    public void released(ReleasedLock released) {
        releaseCounter(released.reason()).increment();
        if (AUDIT.isInfoEnabled()) {
            pending.add("release resource=" + released.lock().resource() + " user="
                    + AuditText.quote(released.lock().ownerUserId())
                    + " reason="
                    + released.reason().wireName() + " token=" + released.lock().token());
        }
    }

    public void brokenByAdmin(ReleasedLock released, String adminUserId) {
        pending.add("admin-break resource=" + released.lock().resource() + " holder="
                + AuditText.quote(released.lock().ownerUserId()) + " admin=" + AuditText.quote(adminUserId));
    }
}
