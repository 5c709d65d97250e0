package io.editlock.waiting;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.Holder;
import io.editlock.lock.ItemOwners;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.lock.Resource;
import io.editlock.lock.redis.LockRequests;
import io.editlock.lock.redis.SocketIndex;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Waiting for a page (docs/protocol.md §14): joining and leaving a line. Serving the head is not
 * here: every script that frees a lock does it in the same run (lua/waitlines_lib.lua).
 */
@ApplicationScoped
public class WaitingLines {

    /** What a {@code wait-for} came to. */
    public sealed interface Outcome {
        Resource resource();
    }

    /** Nothing stands between the user and the resource: lock it as any request. */
    public record Free(Resource resource) implements Outcome {}

    public record Queued(Resource resource, long position) implements Outcome {}

    public record NotFound(Resource resource) implements Outcome {}

    public record LimitExceeded(Resource resource, int limit) implements Outcome {}

    private final WaitingScripts scripts;
    private final ItemOwners items;
    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final WaitingState state;
    private final SocketIndex sockets;
    private final LockRequests requests;
    private final Withdrawals withdrawals;
    private final WaitEventRelay events;
    /** How long a user's count of lines lives after its last use. */
    private static final Duration LINES_KEPT = Duration.ofDays(1);
    /** Far longer than a wait-for takes from its count to its line (every Redis call is bounded well below). */
    private static final Duration SETTLE = Duration.ofSeconds(10);

    private final int maxLines;

    public WaitingLines(
            WaitingScripts scripts,
            ItemOwners items,
            PipelinedRedis redis,
            LockKeys keys,
            WaitingState state,
            SocketIndex sockets,
            LockRequests requests,
            Withdrawals withdrawals,
            WaitEventRelay events,
            EditlockConfig config) {
        this.events = events;
        this.scripts = scripts;
        this.items = items;
        this.redis = redis;
        this.keys = keys;
        this.state = state;
        this.maxLines = config.waiting().maxLinesPerUser();
        this.sockets = sockets;
        this.requests = requests;
        this.withdrawals = withdrawals;
    }

    public Uni<Outcome> waitFor(Resource requested, Holder holder) {
        return resolve(requested)
                .flatMap(resolved -> {
                    if (resolved.isEmpty()) {
                        return Uni.createFrom().<Outcome>item(new NotFound(requested));
                    }
                    Resource resource = resolved.get();
                    String entry = resource.configuratorId() + "|" + resource.field();
                    return withinLimit(holder.userId(), entry)
                            .flatMap(counted -> ask(resource, holder, entry, counted))
                            .onFailure()
                            .transform(failure -> LockStoreUnavailableException.of(failure, resource));
                })
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /**
     * Runs wait_for. At the limit ({@code counted} false) it is still asked: a page free for the user
     * (or theirs already), or a line they are in, is answered as always; only a new line is refused.
     */
    private Uni<Outcome> ask(Resource resource, Holder holder, String entry, boolean counted) {
        long request = requests.next();
        InFlightRequests.Ticket joining = state.joining(holder.userId(), resource.configuratorId(), resource.field());
        long catchUps = state.catchUps();
        long moves = state.moves();
        // Listed under the socket before it waits, so that its going (or idling) reaches the line.
        return listedFirst(
                        holder.socketId(),
                        resource.configuratorId(),
                        () -> scripts.waitFor(resource, holder, counted, request)
                                .call(reply -> counted(holder.userId(), entry, counted, reply))
                                // The requester is told UNAVAILABLE, and the script may have run all the same.
                                .onFailure()
                                .invoke(() -> withdrawals.waitFor(resource, holder, request))
                                .onCancellation()
                                .invoke(() -> withdrawals.waitFor(resource, holder, request)))
                .onFailure()
                .invoke(() -> state.notJoining(joining))
                .onCancellation()
                .invoke(() -> state.notJoining(joining))
                .map(reply -> outcome(resource, holder, reply, joining, catchUps))
                .flatMap(outcome -> movedMeanwhile(outcome, holder.userId(), moves));
    }

    /**
     * A line that moved while the place was being taken (its head served, somebody ahead left) was
     * announced before this node knew of the place, and the position the script answered may be behind:
     * it is read again, so that the reply says where the user is now (docs/protocol.md §14).
     */
    private Uni<Outcome> movedMeanwhile(Outcome outcome, String userId, long movesBefore) {
        if (!(outcome instanceof Queued queued) || state.moves() == movesBefore) {
            return Uni.createFrom().item(outcome);
        }
        Resource resource = queued.resource();
        long c = resource.configuratorId();
        WaitingState.Place place = state.placesIn(c, resource.field()).get(userId);
        if (place == null) {
            return Uni.createFrom().item(outcome);
        }
        return events.positionOf(c, resource.field(), place.member())
                .map(position -> {
                    state.movedUp(userId, c, resource.field(), place.member(), position);
                    // A queue-updated sent meanwhile may have told a newer position than this read.
                    long told = state.told(userId, c, resource.field(), place.member());
                    long now = told > 0 ? told : position;
                    if (now <= 0 || now == queued.position()) {
                        return outcome;
                    }
                    return (Outcome) new Queued(resource, now);
                })
                // The position answered is still a place in the line; a later move tells the new one.
                .onFailure()
                .recoverWithItem(outcome);
    }

    /**
     * A line counted but not joined is uncounted; one not counted never was in the count. A line
     * joined is marked so (score 0): from now on, once the user is no longer in it (served, gone),
     * the count may drop it at once, where an entry still on its way to its line must be left alone.
     */
    private Uni<Void> counted(String userId, String entry, boolean counted, WaitReply reply) {
        String lines = keys.userWaiting(userId);
        if (reply instanceof WaitReply.Queued) {
            return execute(Command.ZADD, lines, "XX", "0", entry).replaceWithVoid();
        }
        return counted
                ? execute(Command.ZREM, lines, entry).replaceWithVoid()
                : Uni.createFrom().voidItem();
    }

    /** @return the resource with its configurator, empty when it does not exist */
    public Uni<Optional<Resource>> stopWaiting(Resource requested, Holder asker) {
        String userId = asker.userId();
        return resolve(requested)
                .flatMap(resolved -> {
                    if (resolved.isEmpty()) {
                        return Uni.createFrom().item(resolved);
                    }
                    Resource resource = resolved.get();
                    state.left(userId, resource.configuratorId(), resource.field());
                    return scripts.stopWaiting(resource, asker)
                            .call(() -> execute(
                                    Command.ZREM,
                                    keys.userWaiting(userId),
                                    resource.configuratorId() + "|" + resource.field()))
                            .replaceWith(resolved);
                })
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /** Fills in the configurator of an item page; empty when the item does not exist. */
    public Uni<Optional<Resource>> resolve(Resource requested) {
        return items.resolve(requested);
    }

    /** @param catchUps the node's count of catch-ups when the request began */
    private Outcome outcome(
            Resource resource, Holder holder, WaitReply reply, InFlightRequests.Ticket joining, long catchUps) {
        if (reply instanceof WaitReply.Queued queued) {
            boolean recorded = state.joined(
                    joining,
                    holder.userId(),
                    resource.configuratorId(),
                    resource.field(),
                    queued.member(),
                    queued.position());
            if (recorded && state.catchUps() != catchUps) {
                // A catch-up began while this was in flight, and did not know of the place: what it would
                // have found (a grant from the line missed, the place gone) is looked for now.
                events.catchUpLine(resource.configuratorId(), resource.field());
            }
            return new Queued(resource, queued.position());
        }
        state.notJoining(joining);
        if (reply instanceof WaitReply.GivenUp) {
            throw new LockStoreUnavailableException("the request was given up before it ran", null);
        }
        if (reply instanceof WaitReply.Full) {
            return new LimitExceeded(resource, maxLines);
        }
        return reply instanceof WaitReply.Free ? new Free(resource) : new NotFound(resource);
    }

    /**
     * At most {@code maxLines} lines per user. The user's count may keep lines left elsewhere
     * (served, gone); when it refuses, those are dropped and it is asked once more. A line counted
     * moments ago and not yet joined is never dropped: its wait_for may still be on its way.
     */
    private Uni<Boolean> withinLimit(String userId, String entry) {
        return scripts.reserveLine(userId, entry, maxLines, LINES_KEPT, SETTLE)
                .flatMap(first -> first.counted()
                        ? Uni.createFrom().item(true)
                        : prune(userId, first.settled())
                                .chain(() -> scripts.reserveLine(userId, entry, maxLines, LINES_KEPT, SETTLE))
                                .map(WaitingScripts.Reservation::counted));
    }

    /** Drops the lines among {@code settled} the user no longer waits in. */
    private Uni<Void> prune(String userId, List<String> settled) {
        String lines = keys.userWaiting(userId);
        return Multi.createFrom()
                .iterable(settled)
                .onItem()
                .transformToUniAndMerge(member -> {
                    String[] parts = member.split("\\|", 2);
                    String waiters = keys.waiting(Long.parseLong(parts[0])).get(2);
                    return execute(Command.HEXISTS, waiters, parts[1] + "|" + userId)
                            .flatMap(exists -> exists.toInteger() == 1
                                    ? Uni.createFrom().voidItem()
                                    : execute(Command.ZREM, lines, member).replaceWithVoid());
                })
                .collect()
                .asList()
                .replaceWithVoid();
    }

    /**
     * Runs a request of the socket with the configurator listed under the socket first, so that the
     * socket's going (or idling) reaches what it asks for there.
     */
    <T> Uni<T> listedFirst(String socketId, long configuratorId, Supplier<Uni<? extends T>> request) {
        return sockets.listedFor(socketId, configuratorId, listed -> listed.chain(request));
    }

    private Uni<Response> execute(Command command, String... args) {
        return redis.execute(command, args);
    }
}
