package io.editlock.session;

import io.editlock.lock.Lock;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The locks this node last showed the watchers of each configurator (in a {@code lock-updated}, or the
 * reply to a {@code watch}). After a while of hearing nothing from the store, a lock shown then and no
 * longer stored ended unheard: the node owes its watchers that {@code lock-released}
 * (docs/protocol.md §6: every release is announced). Kept while the configurator has watchers here.
 *
 * <p>A grant is known by its page, holder and the moment it was granted (a re-entry keeps it), for what
 * watchers are shown carries no token. One lock guards it all: events, replies and catch-ups come from
 * different threads, and each step here is short.
 */
@ApplicationScoped
public class ShownLocks {

    private final Map<Long, List<Shown>> shown = new HashMap<>();
    /** The catch-ups under way, each with what it still owes; a release heard reduces them all. */
    private final Set<CatchUp> catchUps = new HashSet<>();

    /** A lock shown, and the socket already told of its end by its own unlock's reply (or null). */
    private record Shown(Lock lock, String toldSocketId) {}

    /** What the catch-up owes one configurator's watchers: each lock, and the socket not to tell again. */
    public record Ended(Lock lock, Optional<String> toldSocketId) {}

    /** One catch-up: the locks shown when the node heard again, less those heard of since. */
    public static final class CatchUp {
        private final Map<Long, List<Shown>> owed;

        private CatchUp(Map<Long, List<Shown>> owed) {
            this.owed = owed;
        }
    }

    /** A {@code lock-updated} showed these locks to the configurator's watchers. */
    public synchronized void broadcast(long configuratorId, List<Lock> locks) {
        shown.put(configuratorId, fresh(locks));
    }

    /**
     * A {@code watch} reply showed these: read before a change that a broadcast may already have shown,
     * so it never replaces what a broadcast showed.
     */
    public synchronized void answered(long configuratorId, List<Lock> locks) {
        shown.putIfAbsent(configuratorId, fresh(locks));
    }

    /** What the watchers of the configurator were shown last; empty when this node shows them nothing yet. */
    public synchronized Optional<List<Lock>> showing(long configuratorId) {
        return Optional.ofNullable(shown.get(configuratorId))
                .map(locks -> locks.stream().map(Shown::lock).toList());
    }

    /** The configurator has no watchers here any more. */
    public synchronized void forget(long configuratorId) {
        shown.remove(configuratorId);
    }

    /**
     * The node hears again: what it was showing the watchers of these configurators is owed from now
     * on, less what it hears of. Every configurator named must come to {@link #endedUnheard} or
     * {@link #abandoned}; the others are forgotten.
     */
    public synchronized CatchUp catchUpBegins(Collection<Long> watched) {
        shown.keySet().retainAll(Set.copyOf(watched));
        CatchUp catchUp = new CatchUp(new HashMap<>(shown));
        if (!catchUp.owed.isEmpty()) {
            catchUps.add(catchUp);
        }
        return catchUp;
    }

    /** A release this node announced (an event it heard): no catch-up owes it, and it is no longer shown. */
    public synchronized void heard(long configuratorId, Lock released) {
        shown.computeIfPresent(configuratorId, (id, locks) -> without(locks, released));
        catchUps.forEach(
                catchUp -> catchUp.owed.computeIfPresent(configuratorId, (id, locks) -> without(locks, released)));
    }

    /** A socket's own unlock released this lock, and its reply told it so: it is not told again. */
    public synchronized void toldByReply(long configuratorId, Lock released, String socketId) {
        shown.computeIfPresent(configuratorId, (id, locks) -> told(locks, released, socketId));
        catchUps.forEach(catchUp ->
                catchUp.owed.computeIfPresent(configuratorId, (id, locks) -> told(locks, released, socketId)));
    }

    /** The locks the catch-up owes the configurator's watchers: shown, not heard of, and no longer stored. */
    public synchronized List<Ended> endedUnheard(CatchUp catchUp, long configuratorId, List<Lock> stored) {
        List<Shown> due = settle(catchUp, configuratorId);
        List<Ended> ended = new ArrayList<>();
        for (Shown each : due) {
            if (stored.stream().noneMatch(kept -> sameGrant(kept, each.lock()))) {
                ended.add(new Ended(each.lock(), Optional.ofNullable(each.toldSocketId())));
            }
        }
        return ended;
    }

    /** The catch-up could not read the configurator's locks: it owes nothing more there. */
    public synchronized void abandoned(CatchUp catchUp, long configuratorId) {
        settle(catchUp, configuratorId);
    }

    private List<Shown> settle(CatchUp catchUp, long configuratorId) {
        List<Shown> due = catchUp.owed.remove(configuratorId);
        if (catchUp.owed.isEmpty()) {
            catchUps.remove(catchUp);
        }
        return due == null ? List.of() : due;
    }

    private static List<Shown> fresh(List<Lock> locks) {
        return locks.stream().map(lock -> new Shown(lock, null)).toList();
    }

    private static List<Shown> without(List<Shown> locks, Lock released) {
        return locks.stream().filter(each -> !sameGrant(each.lock(), released)).toList();
    }

    private static List<Shown> told(List<Shown> locks, Lock released, String socketId) {
        return locks.stream()
                .map(each -> sameGrant(each.lock(), released) ? new Shown(each.lock(), socketId) : each)
                .toList();
    }

    private static boolean sameGrant(Lock a, Lock b) {
        return a.resource().equals(b.resource())
                && a.ownerUserId().equals(b.ownerUserId())
                && a.acquiredAt().equals(b.acquiredAt());
    }
}
