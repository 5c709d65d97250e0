package io.editlock.lock;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.redis.LockScripts;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.StoreClock;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Releases and announces leases that ran out because nobody renewed them (their node died, or a
 * bug lost them). Every node runs it; the scripts make a double pass harmless. Which configurators
 * to look at comes from a sorted set of lease ends, so no pass scans keys.
 */
@ApplicationScoped
public class LeaseReaper {

    private static final Logger LOG = Logger.getLogger(LeaseReaper.class);

    private final PipelinedRedis redis;
    private final LockScripts scripts;
    private final LockKeys keys;
    private final int batch;
    private final LockAudit audit;
    private final StoreClock clock;

    public LeaseReaper(
            PipelinedRedis redis,
            LockScripts scripts,
            LockKeys keys,
            EditlockConfig config,
            LockAudit audit,
            StoreClock clock) {
        this.audit = audit;
        this.clock = clock;
        this.redis = redis;
        this.scripts = scripts;
        this.keys = keys;
        this.batch = config.lease().reaperBatch();
    }

    @Scheduled(
            every = "${editlock.lease.reaper-interval:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> reapDueLeases() {
        return reapDue()
                .onFailure()
                .recoverWithUni(failure -> {
                    LOG.debugf("lease reaper pass failed (will retry): %s", failure.getMessage());
                    return Uni.createFrom().item(0);
                })
                .replaceWithVoid();
    }

    /** @return how many configurators were looked at */
    public Uni<Integer> reapDue() {
        return redis.execute(
                        Command.ZRANGEBYSCORE,
                        keys.leaseExpiries(),
                        "-inf",
                        // Lease ends are on Redis's clock: by this node's own, a node behind would reap late and
                        // one ahead would run the reap script on every locked configurator, every second.
                        String.valueOf(clock.nowMillis()),
                        "WITHSCORES",
                        "LIMIT",
                        "0",
                        String.valueOf(batch))
                .flatMap(due -> Multi.createFrom()
                        .iterable(entries(due))
                        .onItem()
                        .transformToUniAndMerge(entry -> scripts.reapExpired(entry.configuratorId())
                                .invoke(reaped -> audit.released(reaped.released()))
                                .flatMap(reaped -> scripts.rescheduleExpiry(
                                        entry.configuratorId(), entry.score(), reaped.nextExpiryMillis()))
                                .replaceWith(entry))
                        .collect()
                        .asList()
                        .map(List::size));
    }

    private static List<Due> entries(Response reply) {
        List<Due> due = new ArrayList<>();
        // RESP2 answers a flat list (member, score, ...); RESP3 a list of pairs.
        if (reply.size() > 0 && reply.get(0).type() == ResponseType.MULTI) {
            reply.forEach(pair -> due.add(new Due(pair.get(0).toLong(), scoreOf(pair.get(1)))));
        } else {
            for (int i = 0; i + 1 < reply.size(); i += 2) {
                due.add(new Due(reply.get(i).toLong(), scoreOf(reply.get(i + 1))));
            }
        }
        return due;
    }

    private static long scoreOf(Response score) {
        return (long) Double.parseDouble(score.toString());
    }

    private record Due(long configuratorId, long score) {}
}
