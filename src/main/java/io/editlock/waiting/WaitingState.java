package io.editlock.waiting;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.lock.MovedSocket;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this node knows of the waiting lines: the counts watchers see in {@code lock-updated}
 * ({@code waiting}, docs/protocol.md §14), as of the last waiting event or read; and the places of
 * the users who asked to wait from a socket of this node, so that it can tell them when they move up.
 */
@ApplicationScoped
public class WaitingState {

    /** A user's place in one line, and the position last told. */
    public record Place(String member, long position) {}

    /** A take-over a user asked for (docs/protocol.md §13): the page's field and whom it asked. */
    public record AskedTakeover(String field, String askerId, String holderId) {}

    private final Map<Long, JsonNode> counts = new ConcurrentHashMap<>();
    private final PipelinedRedis redis;
    private final LockKeys keys;

    public WaitingState(PipelinedRedis redis, LockKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** Reads the configurator's counts from the store (a new watcher must not wait for the next change to see them). */
    public Uni<Void> refresh(long configuratorId) {
        return redis.execute(Command.HGETALL, keys.waiting(configuratorId).get(0))
                .map(lines -> {
                    ObjectNode waiting = JsonNodeFactory.instance.objectNode();
                    pairs(lines).forEach((field, n) -> put(waiting, configuratorId, field, Long.parseLong(n)));
                    counts(configuratorId, waiting);
                    return null;
                })
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    /** A hash's fields and values, whether the reply is a map (RESP3) or a flat array (RESP2). */
    private static Map<String, String> pairs(Response reply) {
        Map<String, String> pairs = new LinkedHashMap<>();
        if (reply == null) {
            return pairs;
        }
        Set<String> fields;
        try {
            fields = reply.getKeys();
        } catch (UnsupportedOperationException notAMap) {
            fields = Set.of();
        }
        if (!fields.isEmpty()) {
            fields.forEach(field -> pairs.put(field, reply.get(field).toString()));
            return pairs;
        }
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            pairs.put(reply.get(i).toString(), reply.get(i + 1).toString());
        }
        return pairs;
    }

    private static void put(ObjectNode waiting, long configuratorId, String field, long n) {
        if (n > 0) {
            waiting.put(Fields.resource(configuratorId, field).canonical(), n);
        }
    }
    /** {@code <configuratorId>|<field>} -> userId -> place. */
    private final Map<String, Map<String, Place>> places = new ConcurrentHashMap<>();
    /**
     * Take-overs that users with a socket on this node asked for and whose end this node has not
     * heard of: configurator -> {@code <field>|<askerId>} -> request. The store forgets a request
     * when it ends; a node whose subscription was down needs this to tell its askers what came of it.
     */
    private final Map<Long, Map<String, AskedTakeover>> asked = new ConcurrentHashMap<>();
    /**
     * Catch-ups begun: a wait_for, request_takeover or resume answered after one began recorded what
     * that catch-up did not look at.
     */
    private final AtomicLong catchUps = new AtomicLong();
    /** How many line moves this node heard of, in any line: a place taken while one was heard is looked at again. */
    private final AtomicLong moves = new AtomicLong();
    /** Take-overs being asked by users of this node, whose request-takeover is not answered yet. */
    private final InFlightRequests asking = new InFlightRequests();
    /** Places being taken by users of this node, whose wait_for is not answered yet; it ends when the line serves them. */
    private final InFlightRequests joining = new InFlightRequests();
    /**
     * Resumes under way, per user: what ended for the user while a resume moved their places and
     * take-over requests to a socket of this node. The ends travel apart from the move's reply, as for
     * {@link #joining} and {@link #asking}, and what they ended must not be recorded after them.
     */
    private final Map<String, Set<Resuming>> resuming = new ConcurrentHashMap<>();

    /** One resume's window: from before its move until what it moved is recorded. */
    public static final class Resuming {
        private final String userId;
        /** The node's catch-ups begun when the resume began: one begun since did not look at what it moved. */
        private final long catchUpsBefore;
        /** {@code <configurator>|<field>|<member>} of places that ended; member empty: any place there. */
        private final Set<String> placesEnded = ConcurrentHashMap.newKeySet();
        /** {@code <configurator>|<field>} of take-over requests that ended. */
        private final Set<String> asksEnded = ConcurrentHashMap.newKeySet();

        private Resuming(String userId, long catchUpsBefore) {
            this.userId = userId;
            this.catchUpsBefore = catchUpsBefore;
        }

        private boolean placeEnded(long configuratorId, String field, String member) {
            String page = configuratorId + "|" + field + "|";
            return placesEnded.contains(page) || placesEnded.contains(page + member);
        }
    }

    /** @param waiting canonical -> n, or null/absent when nobody waits in the configurator; @return whether it changed */
    public boolean counts(long configuratorId, JsonNode waiting) {
        JsonNode current = waiting == null || !waiting.isObject() || waiting.isEmpty() ? null : waiting;
        JsonNode previous = current == null ? counts.remove(configuratorId) : counts.put(configuratorId, current);
        return current == null ? previous != null : !current.equals(previous);
    }

    /**
     * The lengths a lock change carried, its run having moved the lines: the waiting event of that run
     * travels on another channel and may come later, and the change's {@code lock-updated} must show
     * the lines as they are with its locks. @return whether they changed
     */
    public boolean counts(long configuratorId, Map<String, Long> waiting) {
        ObjectNode lengths = JsonNodeFactory.instance.objectNode();
        waiting.forEach((canonical, n) -> {
            if (n > 0) {
                lengths.put(canonical, n);
            }
        });
        return counts(configuratorId, lengths);
    }

    /** Adds {@code waiting} to a {@code lock-updated} of the configurator, when somebody waits there. */
    public void decorate(ObjectNode lockUpdated, long configuratorId) {
        JsonNode current = counts.get(configuratorId);
        if (current != null) {
            lockUpdated.set("waiting", current.deepCopy());
        }
    }

    /** The user asks for a place in the line: until {@link #joined} or {@link #notJoining}. */
    InFlightRequests.Ticket joining(String userId, long configuratorId, String field) {
        return joining.started(pageKey(userId, configuratorId, field));
    }

    /** The place asked for was not taken (refused, free, failed). */
    void notJoining(InFlightRequests.Ticket request) {
        joining.dropped(request);
    }

    /**
     * The line served the user, or a take-over gave them the page, and this node missed it: their
     * recorded place ends by its member, so that a wait_for of theirs still in flight that took the
     * same place records nothing (one that took a later place would).
     *
     * @return whether this node still kept the place (and so nobody told the user of the grant yet)
     */
    public boolean grantedUnheard(String userId, long configuratorId, String field) {
        Place place = placesIn(configuratorId, field).get(userId);
        return place != null && left(userId, configuratorId, field, place.member());
    }

    /**
     * What the user waited for was deleted: their place ends, also for a wait_for still being
     * answered (one that ran before the delete took the place that ends now, one that ran after it
     * found nothing to wait for).
     */
    public void pageDeleted(String userId, long configuratorId, String field) {
        joining.ended(pageKey(userId, configuratorId, field));
        left(userId, configuratorId, field);
    }

    // Joining and leaving change a line's map inside compute: a line that became empty is dropped in
    // the same atomic step, so no join can land in a map that was just dropped.
    /** @return whether the place is recorded: not when the line served the user while it was being taken */
    boolean joined(
            InFlightRequests.Ticket request,
            String userId,
            long configuratorId,
            String field,
            String member,
            long position) {
        return joining.answered(request, member, () -> place(userId, configuratorId, field, member, position));
    }

    private void place(String userId, long configuratorId, String field, String member, long position) {
        places.compute(configuratorId + "|" + field, (key, line) -> {
            Map<String, Place> current = line == null ? new ConcurrentHashMap<>() : line;
            // The same place asked for again: a position told since the script read its own is newer.
            current.merge(
                    userId,
                    new Place(member, position),
                    (known, asked) ->
                            known.member().equals(member) && !further(known.position(), position) ? known : asked);
            return current;
        });
    }

    /**
     * Whether a place told {@code told} is further forward at {@code read}: a member joins a line only at
     * its back (its seq is the configurator's next), so a place only ever moves forward, and a read that
     * finds it no further forward than told is as old as what was told, or older. 0 is never told (a
     * place a resume moved here) and never read of a place that stands.
     */
    private static boolean further(long told, long read) {
        return read > 0 && (told <= 0 || read < told);
    }

    /** This node heard a line move (its head served, somebody left): before it looks at the places in it. */
    void lineMoved() {
        moves.incrementAndGet();
    }

    /** How many line moves this node heard of so far. */
    long moves() {
        return moves.get();
    }

    /** This node may have missed waiting events: it looks at the lines of the places it recorded. */
    void catchUpBegins() {
        catchUps.incrementAndGet();
    }

    /** How many catch-ups began so far: a request that sees it change while in flight was not looked at. */
    long catchUps() {
        return catchUps.get();
    }

    /** Before a resume of the user's moves what their old socket waited for and asked for. */
    public Resuming resuming(String userId) {
        Resuming resume = new Resuming(userId, catchUps.get());
        resuming.computeIfAbsent(userId, id -> ConcurrentHashMap.newKeySet()).add(resume);
        return resume;
    }

    /**
     * The places and take-over requests a resume moved here: recorded, but for those whose end was heard
     * while it moved them. Ends the resume's window.
     *
     * @return whether a catch-up began while the resume moved them: it did not look at them
     */
    public boolean resumed(Resuming resume, MovedSocket moved) {
        moved.places().stream()
                .filter(place -> !resume.placeEnded(place.configuratorId(), place.field(), place.member()))
                .forEach(place -> place(resume.userId, place.configuratorId(), place.field(), place.member(), 0));
        moved.asks().stream()
                .filter(ask -> !resume.asksEnded.contains(ask.configuratorId() + "|" + ask.field()))
                .forEach(ask ->
                        asked(ask.configuratorId(), new AskedTakeover(ask.field(), resume.userId, ask.holderId())));
        notResuming(resume);
        return catchUps.get() != resume.catchUpsBefore;
    }

    /** The resume failed, or moved nothing: its window ends. */
    public void notResuming(Resuming resume) {
        resuming.computeIfPresent(resume.userId, (id, windows) -> {
            windows.remove(resume);
            return windows.isEmpty() ? null : windows;
        });
    }

    private Set<Resuming> resumesOf(String userId) {
        return resuming.getOrDefault(userId, Set.of());
    }

    /** A user's request for a page, in {@link #joining} and {@link #asking}. */
    private static String pageKey(String userId, long configuratorId, String field) {
        return configuratorId + "|" + field + "|" + userId;
    }

    /** @return whether this node knew of the user's place there (and so had told the user of it) */
    public boolean left(String userId, long configuratorId, String field) {
        resumesOf(userId).forEach(resume -> resume.placesEnded.add(configuratorId + "|" + field + "|"));
        boolean[] known = new boolean[1];
        places.computeIfPresent(configuratorId + "|" + field, (key, line) -> {
            known[0] = line.remove(userId) != null;
            return line.isEmpty() ? null : line;
        });
        return known[0];
    }

    /**
     * The user left the place that {@code member} names (any, when empty): one they took since (they
     * asked again) stays.
     *
     * @return whether this node knew of that place (and so had told the user of it)
     */
    public boolean left(String userId, long configuratorId, String field, String member) {
        resumesOf(userId).forEach(resume -> resume.placesEnded.add(configuratorId + "|" + field + "|" + member));
        if (!member.isEmpty()) {
            // The wait-for that took this place may still be waiting for its reply: it must not record it.
            joining.ended(pageKey(userId, configuratorId, field), member);
        }
        boolean[] known = new boolean[1];
        places.computeIfPresent(configuratorId + "|" + field, (key, line) -> {
            Place place = line.get(userId);
            if (place != null && (member.isEmpty() || place.member().equals(member))) {
                line.remove(userId);
                known[0] = true;
            }
            return line.isEmpty() ? null : line;
        });
        return known[0];
    }

    /** Whether the user waits in that line, as far as this node knows. */
    public boolean waits(String userId, long configuratorId, String field) {
        return placesIn(configuratorId, field).containsKey(userId);
    }

    /** The lines this node's users wait in, as configurator id and field. */
    public List<Map.Entry<Long, String>> lines() {
        return places.keySet().stream()
                .map(key -> {
                    int bar = key.indexOf('|');
                    return Map.entry(Long.parseLong(key.substring(0, bar)), key.substring(bar + 1));
                })
                .toList();
    }

    /** The users of this node in that line (live view). */
    public Map<String, Place> placesIn(long configuratorId, String field) {
        return places.getOrDefault(configuratorId + "|" + field, Map.of());
    }

    /**
     * A read of where the place {@code member} stands, recorded if it is news, in one step with the
     * check: reads of one line's moves may come back in any order, and two of them may find the same
     * position.
     *
     * @return whether it is news: the user still has that place, and it stands further forward than told
     */
    boolean movedUp(String userId, long configuratorId, String field, String member, long position) {
        boolean[] news = new boolean[1];
        Map<String, Place> line = places.get(configuratorId + "|" + field);
        if (line != null) {
            line.computeIfPresent(userId, (user, place) -> {
                if (!place.member().equals(member) || !further(place.position(), position)) {
                    return place;
                }
                news[0] = true;
                return new Place(member, position);
            });
        }
        return news[0];
    }

    /** The position last told of the place {@code member}; 0 when none was, or the user is not there. */
    long told(String userId, long configuratorId, String field, String member) {
        Place place = placesIn(configuratorId, field).get(userId);
        return place != null && place.member().equals(member) ? place.position() : 0;
    }

    public void asked(long configuratorId, AskedTakeover takeover) {
        asked.compute(configuratorId, (id, requests) -> {
            Map<String, AskedTakeover> current = requests == null ? new ConcurrentHashMap<>() : requests;
            current.put(takeover.field() + "|" + takeover.askerId(), takeover);
            return current;
        });
    }

    /** The user asks for a take-over: until {@link #askedUnlessEnded} or {@link #notAsking}. */
    InFlightRequests.Ticket asking(long configuratorId, String field, String askerId) {
        return asking.started(pageKey(askerId, configuratorId, field));
    }

    /** The take-over asked for does not stand (refused at once, failed). */
    void notAsking(InFlightRequests.Ticket request) {
        asking.dropped(request);
    }

    /**
     * The request stands, as its reply says: recorded, unless its end was heard while it was being asked.
     *
     * @return whether it is recorded
     */
    boolean askedUnlessEnded(InFlightRequests.Ticket request, long configuratorId, AskedTakeover takeover) {
        return asking.answered(request, () -> asked(configuratorId, takeover));
    }

    /** @return the request, if this node had not heard of its end before */
    public Optional<AskedTakeover> takeoverEnded(String askerId, long configuratorId, String field) {
        resumesOf(askerId).forEach(resume -> resume.asksEnded.add(configuratorId + "|" + field));
        asking.ended(pageKey(askerId, configuratorId, field));
        AskedTakeover[] ended = new AskedTakeover[1];
        asked.computeIfPresent(configuratorId, (id, requests) -> {
            ended[0] = requests.remove(field + "|" + askerId);
            return requests.isEmpty() ? null : requests;
        });
        return Optional.ofNullable(ended[0]);
    }

    /** Whether the user asked to take that page over, as far as this node knows. */
    boolean asksTakeover(String userId, long configuratorId, String field) {
        return asked.getOrDefault(configuratorId, Map.of()).containsKey(field + "|" + userId);
    }

    /** The configurators with take-overs asked for by users of this node. */
    public Set<Long> askedConfigurators() {
        return Set.copyOf(asked.keySet());
    }

    /** The take-overs asked for in that configurator whose end this node has not heard of. */
    public List<AskedTakeover> askedIn(long configuratorId) {
        return List.copyOf(asked.getOrDefault(configuratorId, Map.of()).values());
    }
}
