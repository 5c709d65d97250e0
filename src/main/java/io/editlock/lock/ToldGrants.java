package io.editlock.lock;

import java.util.Map;
import java.util.Set;

/**
 * The grants a socket's client was told it holds, as its lease renewal checks them against the store
 * (docs/protocol.md §6). A grant the store no longer has either ended with its announcement still on
 * its way, or was lost by a store that went back in time (a fail-over to a replica that had not caught
 * up), which nobody announces: one that is still missing at the next renewal, and still believed held,
 * was lost.
 */
public interface ToldGrants {

    /** A socket whose grants are not checked (one that dropped: nobody tells it anything until it resumes). */
    ToldGrants NONE = new ToldGrants() {
        @Override
        public Map<Resource, Long> in(long configuratorId) {
            return Map.of();
        }

        @Override
        public Set<Resource> stillMissing(long configuratorId, Map<Resource, Long> missing) {
            return Set.of();
        }
    };

    /** The fencing token of each grant in that configurator that the client believes it holds. */
    Map<Resource, Long> in(long configuratorId);

    /**
     * The renewal found {@code missing} (resource to the token it looked for) gone from the store.
     *
     * @return those of them the renewal before found gone too, with the same token, and that the client
     *     still believes it holds: nothing announced their end in between
     */
    Set<Resource> stillMissing(long configuratorId, Map<Resource, Long> missing);
}
