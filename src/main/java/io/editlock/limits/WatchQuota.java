package io.editlock.limits;

import io.editlock.config.EditlockConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * At most {@code editlock.limits.watches-per-socket} configurators watched by one socket
 * (docs/protocol.md §4). Watching one it already watches is no new watch. Watches that come with a lock do
 * not count against it: a grant is never refused for a limit.
 */
@ApplicationScoped
public class WatchQuota {

    private final LimitMetrics metrics;
    private final int perSocket;

    public WatchQuota(LimitMetrics metrics, EditlockConfig config) {
        this.metrics = metrics;
        this.perSocket = config.limits().watchesPerSocket();
    }

    /**
     * @param asked what the socket asked to watch so far (not what it watches because of its locks)
     * @param watching all it watches now, because it asked or because it locked something there: watching
     *     one of those again is no new watch, and one it watches because of a lock is never refused
     */
    public boolean admits(Set<Long> asked, Set<Long> watching, long configuratorId) {
        if (watching.contains(configuratorId) || asked.contains(configuratorId) || asked.size() < perSocket) {
            return true;
        }
        metrics.refused(LimitMetrics.Limit.WATCHES);
        return false;
    }

    /** Whether one more configurator may be noted as asked for. */
    public boolean roomFor(Set<Long> asked) {
        return asked.size() < perSocket;
    }

    public int perSocket() {
        return perSocket;
    }
}
