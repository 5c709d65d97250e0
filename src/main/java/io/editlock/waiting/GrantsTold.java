package io.editlock.waiting;

import io.editlock.lock.Lock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Grants told to their holders on this node around a catch-up. A grant a catch-up found in the store
 * may also come as an event heard after it, and an event heard may come before a catch-up that read
 * the same grant: the second must not tell it again (a second {@code lock-acquired} or
 * {@code takeover-granted}). Events come within moments of the store's change, so a grant is kept for
 * a minute, and heard grants only within a minute of a catch-up: a node that hears everything keeps
 * nothing.
 */
final class GrantsTold {

    private static final long KEEP_MS = 60_000;

    /** {@code <configuratorId>|<token>} (tokens increase per configurator only) -> when it was told. */
    private final Map<String, Long> told = new ConcurrentHashMap<>();

    private volatile long lastCatchUpMillis = Long.MIN_VALUE / 2;
    private volatile long lastPruneMillis;

    void catchUpBegins() {
        lastCatchUpMillis = System.currentTimeMillis();
    }

    /** A catch-up is about to tell the grant. @return whether no event or other catch-up told it yet */
    boolean firstByCatchUp(long configuratorId, Lock lock) {
        return first(configuratorId, lock, System.currentTimeMillis());
    }

    /** Its event is about to tell the grant. @return whether no catch-up told it yet */
    boolean firstByEvent(long configuratorId, Lock lock) {
        long now = System.currentTimeMillis();
        if (now - lastCatchUpMillis > KEEP_MS) {
            if (!told.isEmpty()) {
                told.clear();
            }
            return true;
        }
        return first(configuratorId, lock, now);
    }

    private boolean first(long configuratorId, Lock lock, long now) {
        if (now - lastPruneMillis > KEEP_MS / 6) {
            lastPruneMillis = now;
            told.values().removeIf(toldAt -> toldAt < now - KEEP_MS);
        }
        return told.putIfAbsent(configuratorId + "|" + lock.token(), now) == null;
    }
}
