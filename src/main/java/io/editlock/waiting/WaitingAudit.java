package io.editlock.waiting;

import io.editlock.lock.AuditText;
import io.editlock.lock.Lock;
import io.editlock.lock.LockAudit;
import io.editlock.lock.Resource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Take-overs and grants from waiting lines in the audit log (logger {@code editlock.audit}, through
 * {@link LockAudit}'s batches) and as
 * Prometheus meters: {@code editlock.takeover} by outcome, {@code editlock.waiting.grants}. Each event
 * is recorded once, by the node that ran the script that decided it, or (for grants the scripts
 * make) by the node of the new holder's socket.
 */
@ApplicationScoped
@Startup // its meters are there from the start, at 0, before the first event they count
public class WaitingAudit {

    /** The {@code outcome} tags of {@code editlock.takeover}. */
    private static final List<String> TAKEOVER_OUTCOMES =
            List.of("requested", "accepted", "refused", "timeout", "asker-gone", "granted");

    private final MeterRegistry registry;
    private final LockAudit audit;
    private final Map<String, Counter> takeovers = new ConcurrentHashMap<>();
    private final Counter queueGrants;
    private final Counter queued;

    public WaitingAudit(MeterRegistry registry, LockAudit audit) {
        this.registry = registry;
        this.audit = audit;
        this.queueGrants = Counter.builder("editlock.waiting.grants")
                .description("Locks granted to the head of a waiting line")
                .register(registry);
        this.queued = Counter.builder("editlock.waiting.joined")
                .description("Users who joined a waiting line")
                .register(registry);
        TAKEOVER_OUTCOMES.forEach(this::takeover);
    }

    public void joined(Resource resource, String userId, long position) {
        queued.increment();
        audit.write("wait resource=" + resource + " user=" + AuditText.quote(userId) + " position=" + position);
    }

    public void requested(Resource resource, String askerId, String holderId, long deadlineMillis) {
        takeover("requested").increment();
        audit.write("takeover-request resource=" + resource + " user=" + AuditText.quote(askerId) + " holder="
                + AuditText.quote(holderId) + " deadline=" + Instant.ofEpochMilli(deadlineMillis));
    }

    /** @param outcome accepted, refused, timeout, asker-gone */
    public void answered(Resource resource, String holderId, String outcome) {
        takeover(outcome).increment();
        audit.write("takeover-" + outcome + " resource=" + resource + " holder=" + AuditText.quote(holderId));
    }

    public void handedOver(Lock lock, String kind) {
        if (kind.equals("queued")) {
            queueGrants.increment();
        } else {
            takeover("granted").increment();
        }
        audit.write("grant resource=" + lock.resource() + " user=" + AuditText.quote(lock.ownerUserId()) + " name="
                + AuditText.quote(lock.ownerUserName()) + " token=" + lock.token() + " via=" + kind);
    }

    private Counter takeover(String outcome) {
        return takeovers.computeIfAbsent(
                outcome,
                tag -> Counter.builder("editlock.takeover")
                        .description("Take-over requests and how they ended")
                        .tag("outcome", tag)
                        .register(registry));
    }
}
