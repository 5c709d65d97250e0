package io.editlock.lock;

import java.util.List;
import java.util.Map;

/**
 * The grants a socket's client was told it holds, as its lease renewals check them against the store
 * (docs/protocol.md §6). A grant the store no longer has either ended with its announcement still on
 * its way, or was lost by a store that went back in time (a fail-over to a replica that had not caught
 * up), which nobody announces: one that stays gone, and believed held, for a renew interval in which
 * the node heard every announcement, was lost. The other way round, a grant the socket keeps that its
 * client was not told of is either on its way to the client, or was brought back by such a store after
 * it ended: one whose end its client was told of, and that stays untold for a renew interval, is a
 * stray, which renewals leave to run out.
 */
public interface ToldGrants {

    /** A grant the socket keeps and its client was not told of, and since when renewals found it so. */
    record Untold(String field, long token, long since) {}

    /** A socket whose grants are not checked (one that dropped: nobody tells it anything until it resumes). */
    ToldGrants NONE = new ToldGrants() {
        @Override
        public Map<Resource, Long> in(long configuratorId) {
            return Map.of();
        }

        @Override
        public Map<Resource, Long> goneSince(long configuratorId, Map<Resource, Long> missing, long now) {
            return Map.of();
        }

        @Override
        public boolean checked() {
            return false;
        }

        @Override
        public void foundUntold(long configuratorId, Map<String, Long> untold, long now) {}

        @Override
        public List<Untold> untold(long configuratorId) {
            return List.of();
        }

        @Override
        public List<Untold> neverTold(long configuratorId) {
            return List.of();
        }
    };

    /** Whether renewals check these grants against the store at all. */
    default boolean checked() {
        return true;
    }

    /** The fencing token of each grant in that configurator that the client believes it holds. */
    Map<Resource, Long> in(long configuratorId);

    /**
     * The renewal found {@code missing} (resource to the token it looked for) gone from the store, at
     * {@code now} ({@link System#nanoTime()}).
     *
     * @return each of them that the client still believes it holds, with when renewals first found it
     *     gone, none of them having found it since
     */
    Map<Resource, Long> goneSince(long configuratorId, Map<Resource, Long> missing, long now);

    /**
     * The renewal found the socket keeping {@code untold} in that configurator (lock field to token),
     * grants its client was not told of, at {@code now} ({@link System#nanoTime()}); the grants it found
     * there before and not now are no longer untold.
     */
    void foundUntold(long configuratorId, Map<String, Long> untold, long now);

    /**
     * The grants renewals keep finding untold in that configurator, each with when they first found it,
     * of which the client was told lately that they ended: not a grant on its way to the client.
     */
    List<Untold> untold(long configuratorId);

    /**
     * The grants renewals keep finding untold in that configurator of which the client was told nothing,
     * neither the grant nor its end: each on its way to the client, or moved to the socket by a resume
     * the store carried out too late to answer, which the client may retry or may not.
     */
    List<Untold> neverTold(long configuratorId);
}
