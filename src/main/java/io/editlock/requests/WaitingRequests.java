package io.editlock.requests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.LockAudit;
import io.editlock.lock.LockService;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.lock.Resource;
import io.editlock.protocol.ClientRequest;
import io.editlock.protocol.ErrorCode;
import io.editlock.protocol.Messages;
import io.editlock.protocol.ServerEvents;
import io.editlock.protocol.WireFormat;
import io.editlock.session.SessionLifecycle;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.editlock.waiting.Takeovers;
import io.editlock.waiting.WaitingAudit;
import io.editlock.waiting.WaitingLines;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * The requests of take-over and waiting (docs/protocol.md §13, §14), each answered with exactly one
 * direct reply. Broadcasts (grants from a line, hand-overs, positions) come through
 * {@code WaitEventRelay}.
 */
@ApplicationScoped
public class WaitingRequests {

    private static final Logger LOG = Logger.getLogger(WaitingRequests.class);
    /** A resource found free by wait-for may be taken before the lock request: look again, a few times. */
    private static final int FREE_RETRIES = 3;

    private final WaitingLines lines;
    private final Takeovers takeovers;
    private final LockService locks;
    private final SessionLifecycle lifecycle;
    private final SessionRegistry registry;
    private final WaitingAudit audit;
    private final LockAudit lockAudit;

    public WaitingRequests(
            WaitingLines lines,
            Takeovers takeovers,
            LockService locks,
            SessionLifecycle lifecycle,
            SessionRegistry registry,
            WaitingAudit audit,
            LockAudit lockAudit) {
        this.lines = lines;
        this.takeovers = takeovers;
        this.locks = locks;
        this.lifecycle = lifecycle;
        this.registry = registry;
        this.audit = audit;
        this.lockAudit = lockAudit;
    }

    /** @return the answer, or null when the request is not one of §13, §14 */
    public Uni<RequestHandler.Answer> handle(SocketSession session, ClientRequest request) {
        if (request instanceof ClientRequest.WaitFor waitFor) {
            long asked = System.nanoTime();
            return lifecycle
                    .beforeLockRequest(session)
                    .chain(() -> waitFor(session, waitFor.resource(), waitFor.ref(), FREE_RETRIES, asked))
                    .onFailure()
                    .recoverWithItem(failure ->
                            RequestHandler.Answer.of(unavailable(failure, waitFor.resource(), waitFor.ref())));
        }
        Uni<String> reply = other(session, request);
        return reply == null ? null : reply.map(RequestHandler.Answer::of);
    }

    private Uni<String> other(SocketSession session, ClientRequest request) {
        if (request instanceof ClientRequest.StopWaiting stop) {
            return lines.stopWaiting(stop.resource(), session.holder())
                    .map(resolved -> {
                        ObjectNode data = WireFormat.object();
                        data.set("resource", WireFormat.resource(resolved.orElse(stop.resource())));
                        return WireFormat.frame(ServerEvents.NOT_WAITING, data, stop.ref());
                    })
                    .onFailure()
                    .recoverWithItem(failure -> SocketError.frame(new SocketError.StoreUnreachable(), stop.ref()));
        }
        if (request instanceof ClientRequest.RequestTakeover ask) {
            return lifecycle
                    .beforeLockRequest(session)
                    .chain(() -> takeovers.request(ask.resource(), session.holder(), ask.message()))
                    .map(outcome -> takeoverReply(session, outcome, ask.ref()))
                    .onFailure()
                    .recoverWithItem(failure -> unavailable(failure, ask.resource(), ask.ref()));
        }
        if (request instanceof ClientRequest.AnswerTakeover answer) {
            return takeovers
                    .answer(answer.resource(), session.identity().userId(), answer.accept(), answer.byUserId())
                    .map(answered -> {
                        if (answered.isEmpty()) {
                            return SocketError.frame(new SocketError.NoTakeoverToAnswer(), answer.ref());
                        }
                        ObjectNode data = WireFormat.object();
                        data.set("resource", WireFormat.resource(answered.get()));
                        data.put("accept", answer.accept());
                        return WireFormat.frame(ServerEvents.TAKEOVER_ANSWERED, data, answer.ref());
                    })
                    .onFailure()
                    .recoverWithItem(failure -> SocketError.frame(new SocketError.StoreUnreachable(), answer.ref()));
        }
        return null;
    }

    private Uni<RequestHandler.Answer> waitFor(
            SocketSession session, Resource requested, String ref, int retries, long asked) {
        return lines.waitFor(requested, session.holder()).flatMap(outcome -> {
            if (outcome instanceof WaitingLines.Queued queued) {
                registry.watch(session, queued.resource().configuratorId());
                audit.joined(queued.resource(), session.identity().userId(), queued.position());
                ObjectNode data = WireFormat.object();
                data.set("resource", WireFormat.resource(queued.resource()));
                data.put("position", queued.position());
                return answer(WireFormat.frame(ServerEvents.QUEUED, data, ref));
            }
            if (outcome instanceof WaitingLines.LimitExceeded limit) {
                return answer(SocketError.frame(new SocketError.WaitLimitReached(limit.limit()), ref));
            }
            if (outcome instanceof WaitingLines.NotFound notFound) {
                return answer(LockReplies.of(new AcquireResult.NotFound(notFound.resource()), ref));
            }
            SessionRegistry.LockRoom room = registry.joinForLock(session, outcome.resource());
            return locks.acquire(outcome.resource(), session.holder())
                    .onFailure()
                    .invoke(room::notGranted)
                    .onFailure()
                    .transform(failure -> LockStoreUnavailableException.of(failure, outcome.resource()))
                    .flatMap(result -> {
                        if (result instanceof AcquireResult.Granted granted) {
                            return Uni.createFrom()
                                    .item(RequestHandler.told(session, granted, LockReplies.of(result, ref), asked));
                        }
                        room.notGranted();
                        if (result instanceof AcquireResult.Refused && retries > 0) {
                            return waitFor(session, requested, ref, retries - 1, asked);
                        }
                        return answer(LockReplies.of(result, ref));
                    });
        });
    }

    private static Uni<RequestHandler.Answer> answer(String reply) {
        return Uni.createFrom().item(RequestHandler.Answer.of(reply));
    }

    private static String takeoverReply(SocketSession session, Takeovers.Outcome outcome, String ref) {
        if (outcome instanceof Takeovers.Pending pending) {
            ObjectNode data = WireFormat.object();
            data.set("resource", WireFormat.resource(pending.resource()));
            data.put("deadline", pending.deadline().toString());
            return WireFormat.frame(ServerEvents.TAKEOVER_PENDING, data, ref);
        }
        Takeovers.Refused refused = (Takeovers.Refused) outcome;
        return switch (refused.refusal()) {
            case LOCKED -> LockReplies.of(new AcquireResult.Refused(refused.resource(), refused.blocking()), ref);
            case NOT_FOUND -> LockReplies.of(new AcquireResult.NotFound(refused.resource()), ref);
            case BUSY -> LockReplies.failed(refused.resource(), ErrorCode.BUSY, Messages.TAKEOVER_BUSY, ref);
            case NOT_HELD ->
                LockReplies.failed(
                        refused.resource(), ErrorCode.NOT_HELD, Messages.takeoverNotNeeded(refused.resource()), ref);
        };
    }

    private static String unavailable(Throwable failure, Resource resource, String ref) {
        LOG.debugf("waiting request failed: %s", failure.getMessage());
        Resource known = failure instanceof LockStoreUnavailableException unavailable
                ? unavailable.resolved().orElse(resource)
                : resource;
        return LockReplies.unavailable(known, ref);
    }
}
