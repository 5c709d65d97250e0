package io.editlock.session;

import io.editlock.lock.Lock;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The locks this node last showed the watchers of each configurator (in a {@code lock-updated}, or the
 * reply to a {@code watch}). After a while of hearing nothing from the store, a lock shown then and no
 * longer stored ended unheard: the node owes its watchers that {@code lock-released}
 * (docs/protocol.md §6: every release is announced). Kept while the configurator has watchers here.
 *
 * <p>A grant is known by its page, holder and the moment it was granted (a re-entry keeps it), for what
 * watchers are shown carries no token.
 */
@ApplicationScoped
public class ShownLocks {

    private final Map<Long, List<Shown>> shown = new ConcurrentHashMap<>();
    /** What a catch-up under way owes: the locks shown when the node heard again, less those heard of since. */
    private volatile Map<Long, List<Shown>> owed = new ConcurrentHashMap<>();

    /** A lock shown, and the socket already told of its end by its own unlock's reply (or null). */
    private record Shown(Lock lock, String toldSocketId) {}

    /** What the catch-up owes one configurator's watchers: each lock, and the socket not to tell again. */
    public record Ended(Lock lock, Optional<String> toldSocketId) {}

    /** A {@code lock-updated} showed these locks to the configurator's watchers. */
    public void broadcast(long configuratorId, List<Lock> locks) {
        shown.put(configuratorId, fresh(locks));
    }

    /**
     * A {@code watch} reply showed these: read before a change that a broadcast may already have shown,
     * so it never replaces what a broadcast showed.
     */
    public void answered(long configuratorId, List<Lock> locks) {
        shown.putIfAbsent(configuratorId, fresh(locks));
    }

    /** The configurator has no watchers here any more. */
    public void forget(long configuratorId) {
        shown.remove(configuratorId);
    }

    /** Forgets every configurator but these. */
    public void keepOnly(Set<Long> watched) {
        shown.keySet().retainAll(watched);
    }

    /**
     * The node hears again: from now on, what it was showing is owed, less what it hears of. Called on
     * the thread that delivers the events, before the next of them.
     */
    public void catchUpBegins() {
        owed = new ConcurrentHashMap<>(shown);
    }

    /** A release this node announced (an event it heard): the catch-up no longer owes it. */
    public void heard(long configuratorId, Lock released) {
        owed.computeIfPresent(configuratorId, (id, locks) -> without(locks, released));
    }

    /** A socket's own unlock released this lock, and its reply told it so: it is not told again. */
    public void toldByReply(long configuratorId, Lock released, String socketId) {
        shown.computeIfPresent(configuratorId, (id, locks) -> told(locks, released, socketId));
        owed.computeIfPresent(configuratorId, (id, locks) -> told(locks, released, socketId));
    }

    /** The locks the catch-up owes the configurator's watchers: shown, not heard of, and no longer stored. */
    public List<Ended> endedUnheard(long configuratorId, List<Lock> stored) {
        List<Shown> due = owed.remove(configuratorId);
        if (due == null) {
            return List.of();
        }
        List<Ended> ended = new ArrayList<>();
        for (Shown each : due) {
            if (stored.stream().noneMatch(kept -> sameGrant(kept, each.lock()))) {
                ended.add(new Ended(each.lock(), Optional.ofNullable(each.toldSocketId())));
            }
        }
        return ended;
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
