package io.editlock.lock;

import java.util.Map;

/**
 * The grants a socket's client was told it holds, as its lease renewals check them against the store
 * (docs/protocol.md §6). A grant the store no longer has either ended with its announcement still on
 * its way, or was lost by a store that went back in time (a fail-over to a replica that had not caught
 * up), which nobody announces: one that stays gone, and believed held, for a renew interval in which
 * the node heard every announcement, was lost.
 */
public interface ToldGrants {

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
    };

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
}
