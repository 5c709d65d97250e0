package io.editlock.waiting;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.Holder;
import io.editlock.lock.Lock;
import io.editlock.lock.LockAudit;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.lock.Resource;
import io.editlock.lock.redis.LockRequests;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.StoreClock;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Take-over with consent (docs/protocol.md §13): asking, answering. The request and its deadline
 * live in Redis beside the lock; {@link TakeoverSweeper} on every node resolves deadlines, and the
 * scripts make sure it happens once.
 */
@ApplicationScoped
public class Takeovers {

    public sealed interface Outcome {
        Resource resource();
    }

    public record Pending(Resource resource, Instant deadline) implements Outcome {}

    /** Why a take-over was not asked for. */
    public enum Refusal {
        /** No other user's lock refuses it to the asker: they can lock it. */
        NOT_HELD,
        /** Another user's lock would still refuse it to the asker (given as {@code blocking}): the one to ask for. */
        LOCKED,
        /** Somebody else already asked. */
        BUSY,
        /** No such configurator or item. */
        NOT_FOUND
    }

    /** @param blocking the lock in the way, for {@link Refusal#LOCKED}; null otherwise */
    public record Refused(Resource resource, Refusal refusal, Lock blocking) implements Outcome {}

    private final WaitingScripts scripts;
    private final WaitingLines lines;
    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final LockAudit lockAudit;
    private final WaitingAudit audit;
    private final LockRequests requests;
    private final Withdrawals withdrawals;
    private final WaitingState state;
    private final WaitEventRelay events;
    private final Duration consent;
    private final StoreClock clock;

    public Takeovers(
            WaitingScripts scripts,
            WaitingLines lines,
            PipelinedRedis redis,
            LockKeys keys,
            LockAudit lockAudit,
            WaitingAudit audit,
            LockRequests requests,
            Withdrawals withdrawals,
            WaitingState state,
            WaitEventRelay events,
            StoreClock clock,
            EditlockConfig config) {
        this.events = events;
        this.clock = clock;
        this.scripts = scripts;
        this.state = state;
        this.lines = lines;
        this.redis = redis;
        this.keys = keys;
        this.lockAudit = lockAudit;
        this.audit = audit;
        this.requests = requests;
        this.withdrawals = withdrawals;
        this.consent = config.waiting().consentWindow();
    }

    public Uni<Outcome> request(Resource requested, Holder asker, String message) {
        return lines.resolve(requested)
                .flatMap(resolved -> {
                    if (resolved.isEmpty()) {
                        return Uni.createFrom().<Outcome>item(new Refused(requested, Refusal.NOT_FOUND, null));
                    }
                    Resource resource = resolved.get();
                    // The sweep's entry goes in before the request exists, so that no request is ever without
                    // one, whenever this node stops; an entry without a request of its own is dropped by the
                    // sweep (resolve_takeover answers GONE, or NOT_DUE with the request's real deadline).
                    long expected = clock.nowMillis() + consent.toMillis();
                    long request = requests.next();
                    String member = TakeoverSweeper.member(
                            resource.configuratorId(), resource.field(), expected, asker.socketId() + ":" + request);
                    InFlightRequests.Ticket asking =
                            state.asking(resource.configuratorId(), resource.field(), asker.userId());
                    long catchUps = state.catchUps();
                    return lines.listedFirst(
                                    asker.socketId(),
                                    resource.configuratorId(),
                                    () -> sweepAt(expected, member)
                                            .chain(() -> scripts.requestTakeover(
                                                            resource, asker, message, consent, request)
                                                    .flatMap(reply -> {
                                                        if (reply instanceof TakeoverReply.Pending pending) {
                                                            return pending(
                                                                    resource, asker, pending, member, asking, catchUps);
                                                        }
                                                        state.notAsking(asking);
                                                        return unswept(member, refused(resource, reply));
                                                    })
                                                    // The asker is told UNAVAILABLE, and the script may have run all
                                                    // the same.
                                                    .onFailure()
                                                    .invoke(() -> withdrawals.takeover(resource, asker, request))
                                                    .onCancellation()
                                                    .invoke(() -> withdrawals.takeover(resource, asker, request))))
                            .onFailure()
                            .invoke(() -> state.notAsking(asking))
                            .onCancellation()
                            .invoke(() -> state.notAsking(asking))
                            .onFailure()
                            .transform(failure -> LockStoreUnavailableException.of(failure, resource));
                })
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /** An answer to whichever request stands (one that names no asker). */
    public Uni<Optional<Resource>> answer(Resource requested, String holderUserId, boolean accept) {
        return answer(requested, holderUserId, accept, null);
    }

    /**
     * @param askerUserId the asker the holder answers, null for whichever request stands: another user's request
     *     is then no request to this answer (a yes meant for one asker never hands the page to another, §13)
     * @return the resource with its configurator when a request was pending for this holder, else empty
     */
    public Uni<Optional<Resource>> answer(Resource requested, String holderUserId, boolean accept, String askerUserId) {
        return lines.resolve(requested)
                .flatMap(resolved -> {
                    if (resolved.isEmpty()) {
                        return Uni.createFrom().item(resolved);
                    }
                    Resource resource = resolved.get();
                    return scripts.answerTakeover(resource, holderUserId, accept, askerUserId)
                            .map(reply -> {
                                lockAudit.released(reply.released());
                                if (reply.late()) {
                                    // Handed over at the deadline, as the sweep would have: no answer counted.
                                    audit.answered(resource, holderUserId, "timeout");
                                } else if (reply.answered()) {
                                    audit.answered(resource, holderUserId, accept ? "accepted" : "refused");
                                }
                                return reply.answered() ? resolved : Optional.<Resource>empty();
                            });
                })
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /** @param catchUps the node's count of catch-ups when the request began */
    private Uni<Outcome> pending(
            Resource resource,
            Holder asker,
            TakeoverReply.Pending reply,
            String member,
            InFlightRequests.Ticket asking,
            long catchUps) {
        long deadline = reply.deadline();
        Outcome pending = new Pending(resource, Instant.ofEpochMilli(deadline));
        // Its end may come while this node's subscription is down: then the node has to know to ask.
        boolean recorded = state.askedUnlessEnded(
                asking,
                resource.configuratorId(),
                new WaitingState.AskedTakeover(resource.field(), asker.userId(), reply.holder()));
        if (recorded && state.catchUps() != catchUps) {
            // A catch-up began while this was in flight, and did not know of the request: it may have
            // ended unheard since.
            events.catchUpTakeover(resource.configuratorId(), resource.field(), asker.userId());
        }
        if (!reply.created()) {
            return unswept(member, pending); // the request asked before has its own entry
        }
        audit.requested(resource, asker.userId(), reply.holder(), deadline);
        // The store's clock decides; the entry made before the script used this node's.
        return sweepAt(deadline, member).replaceWith(pending);
    }

    private static Refused refused(Resource resource, TakeoverReply reply) {
        if (reply instanceof TakeoverReply.GivenUp) {
            throw new LockStoreUnavailableException("the request was given up before it ran", null);
        }
        if (reply instanceof TakeoverReply.Locked locked) {
            return new Refused(resource, Refusal.LOCKED, locked.blocking());
        }
        Refusal refusal = reply instanceof TakeoverReply.Busy
                ? Refusal.BUSY
                : reply instanceof TakeoverReply.NotHeld ? Refusal.NOT_HELD : Refusal.NOT_FOUND;
        return new Refused(resource, refusal, null);
    }

    private Uni<Void> sweepAt(long deadline, String member) {
        return redis.execute(Command.ZADD, keys.takeoverDeadlines(), String.valueOf(deadline), member)
                .replaceWithVoid();
    }

    /** Drops the entry made for a request that was not created; left behind, the sweep drops it later. */
    private Uni<Outcome> unswept(String member, Outcome outcome) {
        return redis.execute(Command.ZREM, keys.takeoverDeadlines(), member)
                .replaceWith(outcome)
                .onFailure()
                .recoverWithItem(outcome);
    }
}
