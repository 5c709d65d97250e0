package io.editlock.waiting;

import io.editlock.lock.LockAudit;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.StoreClock;
import io.editlock.session.NodeHeartbeat;
import io.editlock.session.SocketPresence;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Ends take-over requests whose consent window ran out (docs/protocol.md §13: no answer counts as
 * yes). Every node runs it; the deadlines are one sorted set in Redis, so a request outlives the
 * node that took it, and resolve_takeover hands over at most once whichever node gets there first.
 */
@ApplicationScoped
public class TakeoverSweeper {

    private static final Logger LOG = Logger.getLogger(TakeoverSweeper.class);
    private static final int BATCH = 100;

    private final PipelinedRedis redis;
    private final WaitingScripts scripts;
    private final LockKeys keys;
    private final LockAudit lockAudit;
    private final WaitingAudit audit;
    private final SocketPresence presence;
    private final NodeHeartbeat heartbeat;
    private final StoreClock clock;

    public TakeoverSweeper(
            PipelinedRedis redis,
            WaitingScripts scripts,
            LockKeys keys,
            LockAudit lockAudit,
            WaitingAudit audit,
            SocketPresence presence,
            NodeHeartbeat heartbeat,
            StoreClock clock) {
        this.clock = clock;
        this.redis = redis;
        this.scripts = scripts;
        this.keys = keys;
        this.lockAudit = lockAudit;
        this.audit = audit;
        this.presence = presence;
        this.heartbeat = heartbeat;
    }

    /**
     * {@code <configuratorId>|<field>|<deadline>|<asker>}: one entry per request asked, so that a later
     * request on the same lock is its own, and so is one asked in the same millisecond (by another user, or
     * another socket of the same): dropping the entry of the one that was refused, or that found the
     * request already made, must not drop the entry of the one that was made.
     *
     * @param asker the asking socket and its request's number, unique to this ask
     */
    static String member(long configuratorId, String field, long deadline, String asker) {
        return configuratorId + "|" + field + "|" + deadline + "|" + asker;
    }

    @Scheduled(
            every = "${editlock.waiting.sweep-interval:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> sweep() {
        return resolveDue()
                .onFailure()
                .recoverWithUni(failure -> {
                    LOG.debugf("take-over sweep failed (will retry): %s", failure.getMessage());
                    return Uni.createFrom().item(0);
                })
                .replaceWithVoid();
    }

    /** @return how many due requests were looked at */
    public Uni<Integer> resolveDue() {
        return redis.execute(
                        Command.ZRANGEBYSCORE,
                        keys.takeoverDeadlines(),
                        "-inf",
                        // Deadlines are on Redis's clock (the scripts set them), not on this node's own.
                        String.valueOf(clock.nowMillis()),
                        "LIMIT",
                        "0",
                        String.valueOf(BATCH))
                .flatMap(due -> Multi.createFrom()
                        .iterable(members(due))
                        .onItem()
                        .transformToUniAndMerge(this::resolve)
                        .collect()
                        .asList()
                        .map(List::size));
    }

    private Uni<Void> resolve(String member) {
        String[] parts = member.split("\\|");
        long configuratorId = Long.parseLong(parts[0]);
        String field = parts[1];
        return scripts.askersNodes(configuratorId, field)
                .flatMap(reply -> {
                    if (!(reply instanceof ResolveReply.Due due)) {
                        return Uni.createFrom().item(reply);
                    }
                    if (heartbeat.cutOffLately()) {
                        // Right after an outage an asker may have gone meanwhile, its node not yet able to say so
                        // in the store (it does within a second): a page handed to it would be taken from a
                        // holder who is there. A store out of reach cuts every node off alike, so each waits a
                        // few seconds; a node cut off alone is judged by its heartbeat (deadAmong).
                        return Uni.createFrom().<ResolveReply>nullItem();
                    }
                    return deadAmong(due.nodes()).flatMap(dead -> scripts.resolveTakeover(configuratorId, field, dead));
                })
                .flatMap(reply -> {
                    if (reply == null) {
                        return Uni.createFrom().voidItem(); // looked at again at the next sweep
                    }
                    if (reply instanceof ResolveReply.NotDue notDue) {
                        // The store's clock is ahead of this node's: look again at the store's deadline.
                        return redis.execute(
                                        Command.ZADD,
                                        keys.takeoverDeadlines(),
                                        String.valueOf(notDue.deadline()),
                                        member)
                                .replaceWithVoid();
                    }
                    record(configuratorId, field, reply);
                    return redis.execute(Command.ZREM, keys.takeoverDeadlines(), member)
                            .replaceWithVoid();
                });
    }

    /**
     * The nodes whose heartbeat ended. A socket's node vouches for it for two leases after its last
     * renewal; the heartbeat tells within seconds that a node died, so that a page is not handed at the
     * deadline to an asker who went with it (docs/protocol.md §5, §13). None while this node's own
     * heartbeat has not gone through for a whole TTL: right after an outage every key has lapsed.
     */
    private Uni<List<String>> deadAmong(List<String> nodes) {
        if (nodes.isEmpty() || !heartbeat.othersCanBeJudged()) {
            return Uni.createFrom().item(List.of());
        }
        return Multi.createFrom()
                .iterable(nodes)
                .onItem()
                .transformToUniAndConcatenate(nodeId -> presence.isAlive(nodeId).map(alive -> alive ? "" : nodeId))
                .filter(nodeId -> !nodeId.isEmpty())
                .collect()
                .asList();
    }

    private void record(long configuratorId, String field, ResolveReply reply) {
        if (reply instanceof ResolveReply.Resolved resolved) {
            lockAudit.released(resolved.released());
            audit.answered(Fields.resource(configuratorId, field), resolved.holder(), "timeout");
        } else if (reply instanceof ResolveReply.Ended ended) {
            lockAudit.released(ended.released());
            audit.answered(Fields.resource(configuratorId, field), ended.holder(), "asker-gone");
        }
    }

    private static List<String> members(Response reply) {
        List<String> members = new ArrayList<>();
        if (reply != null) {
            reply.forEach(member -> members.add(member.toString()));
        }
        return members;
    }
}
