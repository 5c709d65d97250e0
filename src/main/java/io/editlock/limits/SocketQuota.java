package io.editlock.limits;

import io.editlock.config.EditlockConfig;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * At most {@code editlock.limits.sockets-per-user} open sockets per user on this node (docs/protocol.md §4):
 * the upgrade beyond them is refused with 429. Concurrent upgrades of one user can pass the upgrade
 * check together; the socket that opens beyond the limit is then closed at once.
 */
@ApplicationScoped
public class SocketQuota {

    private final OpenSockets sockets;
    private final LimitMetrics metrics;
    private final int perUser;

    public SocketQuota(OpenSockets sockets, LimitMetrics metrics, EditlockConfig config) {
        this.sockets = sockets;
        this.metrics = metrics;
        this.perUser = config.limits().socketsPerUser();
    }

    /** Whether the user may open one more socket (before the upgrade). */
    public boolean admitsAnother(String userId) {
        return counted(sockets.openBy(userId) < perUser);
    }

    /** Whether the user's open sockets, the new one counted, are within the limit (after the upgrade). */
    public boolean withinLimit(String userId) {
        return counted(sockets.openBy(userId) <= perUser);
    }

    private boolean counted(boolean admitted) {
        if (!admitted) {
            metrics.refused(LimitMetrics.Limit.SOCKETS);
        }
        return admitted;
    }
}
