package io.editlock.session;

import io.editlock.lock.Lock;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The locks this node last showed the watchers of each configurator (in a {@code lock-updated}, or the
 * reply to a {@code watch}). After a while of hearing nothing from the store, a lock shown then and no
 * longer stored ended unheard: the node owes its watchers that {@code lock-released}
 * (docs/protocol.md §6: every release is announced). Kept only for configurators with watchers here.
 */
@ApplicationScoped
public class ShownLocks {

    private final Map<Long, List<Lock>> shown = new ConcurrentHashMap<>();

    /** A {@code lock-updated} showed these locks to the configurator's watchers. */
    public void broadcast(long configuratorId, List<Lock> locks) {
        shown.put(configuratorId, List.copyOf(locks));
    }

    /**
     * A {@code watch} reply showed these: read before a change that a broadcast may already have shown,
     * so it never replaces what a broadcast showed.
     */
    public void answered(long configuratorId, List<Lock> locks) {
        shown.putIfAbsent(configuratorId, List.copyOf(locks));
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
     * The locks shown last that {@code stored} no longer holds. A grant is known by its page, holder and
     * the moment it was granted (a re-entry keeps it), for what watchers are shown carries no token.
     */
    public List<Lock> endedSince(long configuratorId, List<Lock> stored) {
        return shown.getOrDefault(configuratorId, List.of()).stream()
                .filter(lock -> stored.stream().noneMatch(kept -> sameGrant(kept, lock)))
                .toList();
    }

    private static boolean sameGrant(Lock a, Lock b) {
        return a.resource().equals(b.resource())
                && a.ownerUserId().equals(b.ownerUserId())
                && a.acquiredAt().equals(b.acquiredAt());
    }
}
