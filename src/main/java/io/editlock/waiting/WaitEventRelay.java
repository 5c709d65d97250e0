package io.editlock.waiting;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.lock.Lock;
import io.editlock.lock.MovedSocket;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.Resource;
import io.editlock.lock.ResourceType;
import io.editlock.lock.redis.LockRecords;
import io.editlock.lock.redis.LockScripts;
import io.editlock.protocol.ErrorCode;
import io.editlock.protocol.Messages;
import io.editlock.protocol.ServerEvents;
import io.editlock.protocol.WireFormat;
import io.editlock.redis.LockEventsThread;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.editlock.session.FrameSender;
import io.editlock.session.HeldLocks;
import io.editlock.session.NodeIdentity;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Fan-out of waiting lines and take-overs across nodes (docs/protocol.md §13, §14): the scripts
 * publish every change on the lock events channel, where the node's {@code LockEventRelay}
 * hears it and hands it here, in order with the lock changes; each node tells its own sockets — grants from a line ({@code lock-acquired}
 * with {@code queued: true}) and hand-overs ({@code takeover-granted}) to every socket of the new
 * holder, {@code takeover-requested} to the holder, {@code takeover-refused} and {@code lock-failed}
 * to the asker, {@code queue-updated} to those who moved up; and it says when the {@code waiting}
 * counts changed, so that the watchers get a {@code lock-updated}.
 */
@ApplicationScoped
public class WaitEventRelay {

    private static final Logger LOG = Logger.getLogger(WaitEventRelay.class);

    private final LockKeys keys;
    private final SessionRegistry registry;
    private final WaitingState state;
    private final LockScripts lockScripts;
    private final WaitingAudit audit;
    private final NodeIdentity node;
    private final QueuedConfiguratorSwitch configuratorSwitch;
    private final FrameSender sender;
    private final PipelinedRedis calls;
    private final TakeoverCatchUp takeovers;
    private final LockEventsThread eventsThread;
    private final GrantsTold told = new GrantsTold();

    public WaitEventRelay(
            LockKeys keys,
            SessionRegistry registry,
            WaitingState state,
            LockScripts lockScripts,
            WaitingAudit audit,
            NodeIdentity node,
            QueuedConfiguratorSwitch configuratorSwitch,
            FrameSender sender,
            PipelinedRedis calls,
            TakeoverCatchUp takeovers,
            LockEventsThread eventsThread) {
        this.eventsThread = eventsThread;
        this.sender = sender;
        this.takeovers = takeovers;
        this.calls = calls;
        this.keys = keys;
        this.registry = registry;
        this.state = state;
        this.lockScripts = lockScripts;
        this.audit = audit;
        this.node = node;
        this.configuratorSwitch = configuratorSwitch;
    }

    /**
     * Events were missed while the subscription to the lock events was down. The counts of the watched configurators are
     * read again (the lock relay sends them on), each user of this node who waited in a line learns
     * what became of their place: a grant from the line they missed, or where they are now; and of
     * take-overs, holders learn of the requests that stand against them, askers how theirs ended
     * ({@link TakeoverCatchUp}).
     */
    public void catchUp() {
        told.catchUpBegins();
        state.catchUpBegins();
        takeovers
                .missed()
                .subscribe()
                .with(
                        missed -> eventsThread.run(() -> missed.forEach(this::tell)),
                        failure -> LOG.debugf("take-overs not caught up: %s", failure.getMessage()));
        for (Long configuratorId : List.copyOf(registry.watchedConfigurators())) {
            state.refresh(configuratorId).subscribe().with(ignored -> {}, failure -> {});
        }
        for (Map.Entry<Long, String> line : state.lines()) {
            catchUpLine(line.getKey(), line.getValue());
        }
    }

    /**
     * What became of this node's users' places in one line while it may have missed waiting events:
     * a grant from the line, the place gone, or where they are now. The line is read before the locks,
     * so that a place a grant ended shows as that grant's lock; and what was read is acted on on the
     * thread that delivers the events: one heard before then has already changed the places looked
     * at, one heard after finds them changed (and a grant told, {@link GrantsTold}).
     */
    void catchUpLine(long c, String field) {
        String line = keys.waiting(c).get(1);
        Multi.createFrom()
                .iterable(Map.copyOf(state.placesIn(c, field)).entrySet())
                .onItem()
                .transformToUniAndMerge(place -> calls.execute(
                                Command.ZSCORE, line, place.getValue().member())
                        .map(score -> score == null ? place : null))
                .filter(gone -> gone != null)
                .collect()
                .asList()
                .flatMap(gone -> lockScripts.list(c).map(locks -> new LineRead(gone, locks)))
                .subscribe()
                .with(
                        read -> eventsThread.run(() -> settle(c, field, read)),
                        failure -> LOG.debugf(
                                "line %s of configurator %d not caught up: %s", field, c, failure.getMessage()));
    }

    /**
     * What became of a take-over request this node recorded after a catch-up began: the catch-up did
     * not look at it, and its end may have been published while the node heard nothing.
     */
    void catchUpTakeover(long c, String field, String askerId) {
        takeovers
                .recordedLate(c, field, askerId)
                .subscribe()
                .with(
                        missed -> eventsThread.run(() -> missed.forEach(this::tell)),
                        failure -> LOG.debugf(
                                "take-over %s of configurator %d not caught up: %s", field, c, failure.getMessage()));
    }

    /** The places found gone from a line, and the configurator's locks read after them. */
    private record LineRead(List<Map.Entry<String, WaitingState.Place>> gone, List<Lock> locks) {}

    private void settle(long c, String field, LineRead read) {
        Optional<Lock> held = read.locks().stream()
                .filter(lock -> lock.resource().field().equals(field))
                .findFirst();
        // A user who also asked to take the page over may have got it by the take-over: told as one.
        // Whichever catch-up tells it first tells it (GrantsTold), so that a failed read of the other
        // leaves nobody holding a page they were not told of.
        held.filter(lock -> state.placesIn(c, field).containsKey(lock.ownerUserId()))
                .ifPresent(lock ->
                        missedGrant(c, lock, state.asksTakeover(lock.ownerUserId(), c, field) ? "takeover" : "queued"));
        for (Map.Entry<String, WaitingState.Place> place : read.gone()) {
            String userId = place.getKey();
            boolean granted =
                    held.map(lock -> lock.ownerUserId().equals(userId)).orElse(false);
            // Nothing else will tell of a place that ended otherwise; a grant is told as a grant.
            if (state.left(userId, c, field, place.getValue().member()) && !granted) {
                placeEnded(c, field, userId, null, null);
            }
        }
        moved(c, field);
    }

    /**
     * The user waited for this lock and holds it now: the grant from the line came while nobody
     * listened. It is taken up as if heard, so a configurator grant also releases the user's previous
     * configurator (docs/protocol.md §2), which no other node would do.
     */
    private void missedGrant(long c, Lock lock, String kind) {
        // Two looks at the line may both find the grant: the one that still finds the place tells it.
        if (state.grantedUnheard(lock.ownerUserId(), c, lock.resource().field()) && told.firstByCatchUp(c, lock)) {
            granted(c, lock, kind, false);
        }
    }

    /**
     * Tells this node's sockets what the waiting event says.
     *
     * @return whether the waiting lines' lengths changed: the configurator's watchers are then due a
     *     {@code lock-updated}, with the locks of the event
     */
    public boolean deliver(JsonNode event) {
        try {
            return relay(event);
        } catch (RuntimeException e) {
            // Only the scripts publish here; a message they did not write must not end the subscription.
            LOG.warnf("ignoring a malformed waiting event: %s", e.getMessage());
            return false;
        }
    }

    private boolean relay(JsonNode event) {
        long c = Long.parseLong(event.path("c").asText());
        for (JsonNode grant : array(event.path("grants"))) {
            Lock lock = LockRecords.lock(grant.path("lock"));
            boolean schedule = grant.path("schedule").asBoolean();
            if (told.firstByEvent(c, lock)) {
                granted(c, lock, grant.path("kind").asText(), schedule);
            } else if (schedule) {
                scheduleLook(c, lock);
            }
        }
        for (JsonNode left : array(event.path("left"))) {
            left(c, left);
        }
        for (JsonNode requested : array(event.path("requested"))) {
            requested(c, PendingTakeover.of(requested));
        }
        for (JsonNode refused : array(event.path("refused"))) {
            refused(
                    c,
                    refused.path("f").asText(),
                    refused.path("u").asText(),
                    refused.path("by").asText());
        }
        for (JsonNode failed : array(event.path("failed"))) {
            failed(c, failed.path("f").asText(), failed.path("u").asText(), LockRecords.lock(failed.path("lock")));
        }
        for (JsonNode gone : array(event.path("gone"))) {
            gone(c, gone.path("f").asText(), gone.path("u").asText());
        }
        for (JsonNode ended : array(event.path("ended"))) {
            ended(
                    c,
                    ended.path("f").asText(),
                    ended.path("u").asText(),
                    ended.path("why").asText());
        }
        for (JsonNode field : array(event.path("moved"))) {
            moved(c, field.asText());
        }
        return state.counts(c, event.path("waiting"));
    }

    /**
     * The user is out of the line ({@code left} of a waiting event: {@code f}, {@code u}, the place's
     * member {@code m}, and {@code why} with the asking socket {@code s}). Their sockets here that nobody
     * told are told, unless the user has taken a new place since: nothing else would tell them, and they
     * would wait for a page that never comes (docs/protocol.md §14). {@code why}: {@code stopped} (one
     * socket of the user asked, and has its reply: the others are told), {@code disconnect} (the last
     * socket that asked went away: the others, on any node, are told), {@code idle} (the user's sockets
     * on any node are told), {@code expired} (no node vouched for the asking sockets any more: their
     * node died, or was cut off and tells its own once it hears; the user's sockets on every node that
     * hears it are told); none when the user was told otherwise (a grant, a delete) or has no socket left.
     */
    private void left(long c, JsonNode left) {
        String field = left.path("f").asText();
        String userId = left.path("u").asText();
        String why = left.path("why").asText();
        state.left(userId, c, field, left.path("m").asText());
        if (why.isEmpty() || state.waits(userId, c, field)) {
            return;
        }
        if (why.equals("stopped") || why.equals("disconnect")) {
            placeEnded(c, field, userId, why, left.path("s").asText());
        } else {
            // Idleness is the user's, and a node that died tells nobody: each node tells the user's sockets it has.
            placeEnded(c, field, userId, why, null);
        }
    }

    /**
     * {@code not-waiting} without {@code ref} to the user's sockets here: the place ended, and they did
     * not ask.
     *
     * @param reason why, when known; null when this node missed how it ended
     * @param asker the socket that asked, which has its reply; null when none did
     */
    private void placeEnded(long c, String field, String userId, String reason, String asker) {
        ObjectNode data = WireFormat.object();
        data.set("resource", WireFormat.resource(Fields.resource(c, field)));
        if (reason != null) {
            data.put("reason", reason);
        }
        String frame = WireFormat.frame(ServerEvents.NOT_WAITING, data, null);
        registry.socketsOf(userId).stream()
                .filter(session -> !session.socketId().equals(asker))
                .forEach(session -> send(session, frame));
    }

    /**
     * A take-over request ended. One that ended because no node vouched for its asker's sockets any
     * more ({@code why} {@code expired}) was decided by nobody; an asker of this node, alive after all,
     * is told what stands now, as a catch-up would tell it (docs/protocol.md §13). One whose asker went
     * idle ends without a word, as when the asker goes.
     */
    private void ended(long c, String field, String askerId, String why) {
        if (!why.equals("expired")) {
            state.takeoverEnded(askerId, c, field);
            return;
        }
        takeovers
                .lapsed(c, field, askerId)
                .subscribe()
                .with(missed -> eventsThread.run(() -> missed.forEach(this::tell)), failure -> {
                    state.takeoverEnded(askerId, c, field);
                    LOG.debugf("the end of take-over %s in %d not told: %s", field, c, failure.getMessage());
                });
    }

    /** What a node missed of take-overs, told as the waiting events would have told it. */
    private void tell(TakeoverCatchUp.Missed missed) {
        if (missed instanceof TakeoverCatchUp.Requested requested) {
            requested(requested.configuratorId(), requested.takeover());
        } else if (missed instanceof TakeoverCatchUp.Granted granted) {
            state.grantedUnheard(
                    granted.lock().ownerUserId(),
                    granted.configuratorId(),
                    granted.lock().resource().field());
            if (told.firstByCatchUp(granted.configuratorId(), granted.lock())) {
                granted(granted.configuratorId(), granted.lock(), "takeover", false);
            }
        } else if (missed instanceof TakeoverCatchUp.Refused refused) {
            refused(refused.configuratorId(), refused.field(), refused.askerId(), refused.byUserName());
        } else if (missed instanceof TakeoverCatchUp.Blocked blocked) {
            failed(blocked.configuratorId(), blocked.field(), blocked.askerId(), blocked.blocking());
        } else if (missed instanceof TakeoverCatchUp.Deleted deleted) {
            gone(deleted.configuratorId(), deleted.field(), deleted.askerId());
        } else if (missed instanceof TakeoverCatchUp.Free free) {
            Resource resource = Fields.resource(free.configuratorId(), free.field());
            toUser(
                    free.askerId(),
                    WireFormat.frame(
                            ServerEvents.LOCK_FAILED,
                            WireFormat.refusal(resource, ErrorCode.NOT_HELD, Messages.takeoverNotNeeded(resource)),
                            null));
        }
    }

    /**
     * A grant from a line or a take-over. The user's place in that line, if any, ends by the
     * {@code left} of the same event, by its member: a {@code wait-for} of the user's that is still in
     * flight may have taken a later place, which stays.
     */
    private void granted(long c, Lock lock, String kind, boolean schedule) {
        if (schedule) {
            scheduleLook(c, lock);
        }
        Map<String, String> keepers = lock.keepers();
        if (keepers.values().stream().findFirst().map(node.id()::equals).orElse(false)) {
            audit.handedOver(lock, kind);
        }
        // Every node with a socket keeping the grant switches, not only the first keeper's: that one may
        // have died. A switch to the same grant twice releases the previous configurator once.
        if (lock.resource().type() == ResourceType.CONFIGURATOR && keepers.containsValue(node.id())) {
            configuratorSwitch
                    .granted(lock)
                    .subscribe()
                    .with(
                            ignored -> {},
                            failure -> LOG.debugf(
                                    "the previous configurator of %s was not released: %s",
                                    lock.ownerUserId(), failure.getMessage()));
        }
        keepers.keySet()
                .forEach(socketId -> registry.find(socketId).ifPresent(session -> registry.keepsGrant(session, lock)));
        ObjectNode data = WireFormat.object();
        data.set("lock", WireFormat.lock(lock, true));
        String frame;
        if (kind.equals("queued")) {
            data.set("released", WireFormat.object().arrayNode());
            data.put("queued", true);
            frame = WireFormat.frame(ServerEvents.LOCK_ACQUIRED, data, null);
        } else {
            frame = WireFormat.frame(ServerEvents.TAKEOVER_GRANTED, data, null);
        }
        toHolder(lock, frame);
    }

    /** Every node may do it (it only ever moves the look earlier): the new holder's node may be gone. */
    private void scheduleLook(long c, Lock lock) {
        lockScripts
                .scheduleExpiry(c, lock.expiresAt().toEpochMilli())
                .subscribe()
                .with(ignored -> {}, failure -> {});
    }

    private void requested(long c, PendingTakeover takeover) {
        if (!registry.socketsOf(takeover.askerId()).isEmpty()) {
            // Asked from another node, maybe: this node's sockets of the asker are told its end too.
            state.asked(c, new WaitingState.AskedTakeover(takeover.field(), takeover.askerId(), takeover.holderId()));
        }
        toUser(takeover.holderId(), requestedFrame(c, takeover));
    }

    /**
     * A socket of this node resumed its user's old socket (docs/protocol.md §5): this node now follows
     * the places and take-over requests it moved, as the node they were asked from did (§13, §14; a
     * place's position is read at its next move). A catch-up that began meanwhile did not look at
     * them, so they are looked at now. And the socket is told of the take-over requests that stand
     * against the locks it took over, as the user's sockets were when they came: else a holder who
     * reloads would never see the request, and would lose the page when its window ends without
     * having been asked.
     */
    public void resumed(SocketSession session, WaitingState.Resuming resume, MovedSocket moved) {
        if (state.resumed(resume, moved)) {
            moved.places().stream()
                    .map(place -> Map.entry(place.configuratorId(), place.field()))
                    .distinct()
                    .forEach(line -> catchUpLine(line.getKey(), line.getValue()));
            moved.asks()
                    .forEach(ask -> catchUpTakeover(
                            ask.configuratorId(),
                            ask.field(),
                            session.identity().userId()));
        }
        takeovers
                .standingAgainst(session.identity().userId(), moved.locks())
                .subscribe()
                .with(
                        standing -> standing.forEach(requested ->
                                send(session, requestedFrame(requested.configuratorId(), requested.takeover()))),
                        failure -> LOG.debugf(
                                "take-over requests against socket %s not told: %s",
                                session.socketId(), failure.getMessage()));
    }

    private static String requestedFrame(long c, PendingTakeover takeover) {
        ObjectNode data = WireFormat.object();
        data.set("resource", WireFormat.resource(Fields.resource(c, takeover.field())));
        data.put("byUserId", takeover.askerId());
        data.put("byUserName", takeover.askerName());
        // Always there, as the contract lists it: a client may read it as a string without a check.
        data.put("message", takeover.message());
        data.put("deadline", Instant.ofEpochMilli(takeover.deadline()).toString());
        return WireFormat.frame(ServerEvents.TAKEOVER_REQUESTED, data, null);
    }

    private void refused(long c, String field, String askerId, String byUserName) {
        ObjectNode data = WireFormat.object();
        data.set("resource", WireFormat.resource(Fields.resource(c, field)));
        data.put("byUserName", byUserName);
        toUser(askerId, WireFormat.frame(ServerEvents.TAKEOVER_REFUSED, data, null));
    }

    private void failed(long c, String field, String askerId, Lock blocking) {
        Resource resource = Fields.resource(c, field);
        toUser(askerId, WireFormat.frame(ServerEvents.LOCK_FAILED, WireFormat.lockedBy(resource, blocking), null));
    }

    /** What the user waited for or asked to take over was deleted: the wait ends as a request for it would. */
    private void gone(long c, String field, String userId) {
        Resource resource = Fields.resource(c, field);
        state.pageDeleted(userId, c, resource.field());
        toUser(
                userId,
                WireFormat.frame(
                        ServerEvents.LOCK_FAILED,
                        WireFormat.refusal(resource, ErrorCode.NOT_FOUND, Messages.notFound(resource)),
                        null));
    }

    /**
     * Tells this node's users in the line where they are now, when that changed. Several moves may be
     * heard before the first read comes back, and the reads may come back in another order than they
     * were sent: each is weighed against what was told by then ({@link WaitingState#movedUp}), and on
     * the thread that delivers the events, so that a user's words leave in the order they were decided.
     */
    private void moved(long c, String field) {
        state.lineMoved(); // first: a place recorded after this read of the places looks again itself
        Map<String, WaitingState.Place> places = state.placesIn(c, field);
        if (places.isEmpty()) {
            return;
        }
        Resource resource = Fields.resource(c, field);
        places.forEach((userId, place) -> positionOf(c, field, place.member())
                .subscribe()
                .with(
                        position -> eventsThread.run(() -> {
                            if (state.movedUp(userId, c, field, place.member(), position)) {
                                ObjectNode data = WireFormat.object();
                                data.set("resource", WireFormat.resource(resource));
                                data.put("position", position);
                                toUser(userId, WireFormat.frame(ServerEvents.QUEUE_UPDATED, data, null));
                            }
                        }),
                        failure ->
                                LOG.debugf("position of %s in %s not read: %s", userId, field, failure.getMessage())));
    }

    /** Where the place {@code member} stands in the line of {@code field} (1 = next); 0 when it is gone. */
    Uni<Long> positionOf(long c, String field, String member) {
        return calls.execute(Command.ZLEXCOUNT, keys.waiting(c).get(1), "[" + field + "|", "[" + member)
                .map(count -> count.toLong());
    }

    /**
     * Tells every socket of the lock's holder that the user holds it now; one that heard of the grant's
     * end before (a catch-up read the grant before its end was delivered) is told of the end again.
     */
    private void toHolder(Lock lock, String frame) {
        registry.socketsOf(lock.ownerUserId()).forEach(session -> {
            HeldLocks held = session.heldLocks();
            // Under the monitor the ends of grants are told under (HeldLocks.ended).
            synchronized (held) {
                Optional<ReleaseReason> endedFirst = held.granted(lock);
                send(session, frame);
                endedFirst.ifPresent(reason -> send(session, WireFormat.lockLost(lock.resource(), reason)));
            }
        });
    }

    private void toUser(String userId, String frame) {
        registry.socketsOf(userId).forEach(session -> send(session, frame));
    }

    private static List<JsonNode> array(JsonNode node) {
        List<JsonNode> items = new ArrayList<>();
        if (node != null && node.isArray()) {
            node.forEach(items::add);
        }
        return items;
    }

    /** Through the sender, so that take-over and waiting events count toward the socket's unsent bytes (docs/protocol.md §4). */
    private void send(SocketSession session, String frame) {
        sender.send(session, frame);
    }
}
