package io.editlock.waiting;

import io.editlock.lock.Lock;
import io.editlock.lock.redis.SocketIndex;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * What this node's users missed of take-overs (docs/protocol.md §13) while its subscription to the
 * waiting events was down, judged from what stands in the store now: holders learn of requests that
 * stand against them, askers of how theirs ended. The store keeps a request only while it is
 * pending, so an ended one is judged by the page as it is now. Reads only the configurators that this
 * node's sockets may keep locks in or asked in, and those its users asked in: one script run each,
 * whose cost grows with the locks and requests there, never with the configurator's items.
 */
@ApplicationScoped
public class TakeoverCatchUp {

    private static final Logger LOG = Logger.getLogger(TakeoverCatchUp.class);

    /** What a user of this node missed, to be told as the waiting event would have told it. */
    public sealed interface Missed {}

    /** A request that stands: its holder is asked (again), and an asker of this node is remembered. */
    public record Requested(long configuratorId, PendingTakeover takeover) implements Missed {}

    /** The asker holds the page now: handed over. */
    public record Granted(long configuratorId, Lock lock) implements Missed {}

    /** The one asked still holds the page and nothing else is in the way: refused. */
    public record Refused(long configuratorId, String field, String askerId, String byUserName) implements Missed {}

    /** Another lock is in the way of the asker now. */
    public record Blocked(long configuratorId, String field, String askerId, Lock blocking) implements Missed {}

    /** The page, or its configurator, was deleted. */
    public record Deleted(long configuratorId, String field, String askerId) implements Missed {}

    /** Nothing is in the way any more, and nothing was handed over: the asker can simply lock it. */
    public record Free(long configuratorId, String field, String askerId) implements Missed {}

    private final SessionRegistry registry;
    private final SocketIndex sockets;
    private final WaitingState state;
    private final WaitingScripts scripts;

    public TakeoverCatchUp(SessionRegistry registry, SocketIndex sockets, WaitingState state, WaitingScripts scripts) {
        this.registry = registry;
        this.sockets = sockets;
        this.state = state;
        this.scripts = scripts;
    }

    public Uni<List<Missed>> missed() {
        return configurators()
                .flatMap(ids -> Multi.createFrom()
                        .iterable(ids)
                        .onItem()
                        .transformToUniAndMerge(this::missedIn)
                        .collect()
                        .in(ArrayList<Missed>::new, List::addAll));
    }

    /**
     * How a request asked from this node ended when nobody decided it: no node vouched for its asker's
     * sockets any more, and this node, alive after all, was cut off from the store meanwhile. Judged as
     * a catch-up judges a request whose end it missed, except that the one asked did not refuse: a
     * holder who still has the page is the lock in the way. Empty when no socket of this node asked it.
     */
    public Uni<List<Missed>> lapsed(long c, String field, String askerId) {
        return endOf(c, field, askerId, true);
    }

    /**
     * How a request ended that this node recorded after a catch-up began, which did not look at it:
     * its end may have been published while the node heard nothing. Empty while it stands, and when
     * this node no longer follows it.
     */
    public Uni<List<Missed>> recordedLate(long c, String field, String askerId) {
        return endOf(c, field, askerId, false);
    }

    private Uni<List<Missed>> endOf(long c, String field, String askerId, boolean decidedByNobody) {
        List<WaitingState.AskedTakeover> asked = state.askedIn(c).stream()
                .filter(request ->
                        request.field().equals(field) && request.askerId().equals(askerId))
                .toList();
        if (asked.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return scripts.readTakeovers(c, asked).map(facts -> {
            List<Missed> missed = new ArrayList<>();
            for (TakeoverFacts.Asked now : facts.asked()) {
                if (!now.pending()) {
                    state.takeoverEnded(now.askerId(), c, now.field())
                            .flatMap(request -> outcome(c, facts.found(), now, request.holderId()))
                            .map(outcome -> decidedByNobody && outcome instanceof Refused
                                    ? new Blocked(c, now.field(), now.askerId(), now.blocking())
                                    : outcome)
                            .ifPresent(missed::add);
                }
            }
            return missed;
        });
    }

    /** The requests that stand against {@code holderId} on any of the locks {@code held}. */
    public Uni<List<Requested>> standingAgainst(String holderId, List<Lock> held) {
        Map<Long, Set<String>> fields = new HashMap<>();
        for (Lock lock : held) {
            if (lock.resource().configuratorId() != null) {
                fields.computeIfAbsent(lock.resource().configuratorId(), c -> new HashSet<>())
                        .add(lock.resource().field());
            }
        }
        return Multi.createFrom()
                .iterable(fields.entrySet())
                .onItem()
                .transformToUniAndMerge(in -> scripts.readTakeovers(in.getKey(), List.of())
                        .map(facts -> facts.pending().stream()
                                .filter(pending -> pending.holderId().equals(holderId)
                                        && in.getValue().contains(pending.field()))
                                .map(pending -> new Requested(in.getKey(), pending))
                                .toList()))
                .collect()
                .in(ArrayList<Requested>::new, List::addAll);
    }

    /**
     * Where this node's sockets may keep locks or asked for something (their index in the store never
     * misses one), and where its users asked for a take-over from another node.
     */
    private Uni<Set<Long>> configurators() {
        Set<Long> ids = new HashSet<>(state.askedConfigurators());
        return Multi.createFrom()
                .iterable(List.copyOf(registry.all()))
                .select()
                .where(SocketSession::mayKeepLocks)
                .onItem()
                .transformToUniAndMerge(session -> sockets.configurators(session.socketId())
                        .onFailure()
                        .recoverWithItem(failure -> {
                            LOG.debugf(
                                    "configurators of socket %s not read: %s",
                                    session.socketId(), failure.getMessage());
                            return List.of();
                        }))
                .collect()
                .in(() -> ids, Set::addAll);
    }

    private Uni<List<Missed>> missedIn(long c) {
        List<WaitingState.AskedTakeover> asked = state.askedIn(c);
        return scripts.readTakeovers(c, asked)
                .map(facts -> judge(c, facts))
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.debugf("take-overs of configurator %d not caught up: %s", c, failure.getMessage());
                    return List.of();
                });
    }

    private List<Missed> judge(long c, TakeoverFacts facts) {
        List<Missed> missed = new ArrayList<>();
        for (PendingTakeover pending : facts.pending()) {
            if (!registry.socketsOf(pending.holderId()).isEmpty()
                    || !registry.socketsOf(pending.askerId()).isEmpty()) {
                missed.add(new Requested(c, pending));
            }
        }
        for (TakeoverFacts.Asked now : facts.asked()) {
            if (!now.pending()) {
                // Only once: the end's own event may have come since the read.
                state.takeoverEnded(now.askerId(), c, now.field())
                        .flatMap(request -> outcome(c, facts.found(), now, request.holderId()))
                        .ifPresent(missed::add);
            }
        }
        return missed;
    }

    /**
     * How a request that is no longer pending ended, as far as the page now tells: whoever holds it,
     * whatever is in the way of the asker.
     *
     * @param holderId the user asked
     */
    static Optional<Missed> outcome(long c, boolean found, TakeoverFacts.Asked now, String holderId) {
        if (now.pending()) {
            return Optional.empty();
        }
        String field = now.field();
        String asker = now.askerId();
        if (!found || !now.exists()) {
            return Optional.of(new Deleted(c, field, asker));
        }
        if (now.lock() != null && now.lock().ownerUserId().equals(asker)) {
            return Optional.of(new Granted(c, now.lock()));
        }
        Lock blocking = now.blocking();
        if (blocking == null) {
            return Optional.of(new Free(c, field, asker));
        }
        boolean theOneAsked = blocking.resource().field().equals(field)
                && blocking.ownerUserId().equals(holderId);
        return Optional.of(
                theOneAsked
                        ? new Refused(c, field, asker, blocking.ownerUserName())
                        : new Blocked(c, field, asker, blocking));
    }
}
