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

    /** @param watched what the socket asked to watch so far (not what it watches because of its locks) */
    public boolean admits(Set<Long> watched, long configuratorId) {
        if (watched.contains(configuratorId) || watched.size() < perSocket) {
            return true;
        }
        metrics.refused(LimitMetrics.Limit.WATCHES);
        return false;
    }

    public int perSocket() {
        return perSocket;
    }
}
