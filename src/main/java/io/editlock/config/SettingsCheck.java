package io.editlock.config;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Settings that are each valid but wrong together (each alone is checked by the constraints of
 * {@link EditlockConfig}). A node configured so that it would take locks away from people at work,
 * or drop every socket, does not start in production; in dev and test mode it starts with a warning,
 * for tests switch renewal off on purpose to watch leases run out.
 */
@ApplicationScoped
public class SettingsCheck {

    private static final Logger LOG = Logger.getLogger(SettingsCheck.class);

    /**
     * Before anything else starts: a node refused its settings must not first subscribe, sweep and
     * renew against the shared Redis, whose errors would bury the reason it gives.
     */
    void atStart(
            @Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE - 1) StartupEvent started, EditlockConfig config) {
        List<String> wrong = wrongTogether(config);
        if (wrong.isEmpty()) {
            return;
        }
        if (LaunchMode.current() == LaunchMode.NORMAL) {
            throw StartRefusal.told(new IllegalStateException(
                    "editlock cannot start with these settings: " + String.join("; ", wrong)));
        }
        wrong.forEach(LOG::warn);
    }

    static List<String> wrongTogether(EditlockConfig config) {
        List<String> wrong = new ArrayList<>();
        Duration ttl = config.lease().ttl();
        Duration renew = config.lease().renewInterval();
        if (renew.compareTo(ttl) >= 0) {
            wrong.add("editlock.lease.renew-interval (" + renew + ") must be shorter than editlock.lease.ttl (" + ttl
                    + "), or leases run out while their sockets are open; keep it below a third of it");
        } else if (renew.multipliedBy(3).compareTo(ttl) > 0) {
            LOG.warnf(
                    "editlock.lease.renew-interval (%s) is over a third of editlock.lease.ttl (%s): one renewal"
                            + " that comes late or fails takes people's locks away",
                    renew, ttl);
        }
        Duration pingInterval = config.websocket().pingInterval();
        Duration pingTimeout = config.websocket().pingTimeout();
        if (pingTimeout.compareTo(pingInterval) <= 0) {
            wrong.add("editlock.websocket.ping-timeout (" + pingTimeout + ") must be longer than"
                    + " editlock.websocket.ping-interval (" + pingInterval
                    + "), or every socket is dropped between two pings");
        }
        Duration grace = config.session().gracePeriod();
        Duration idle = config.session().idleTimeout();
        if (grace.compareTo(idle) >= 0) {
            wrong.add(
                    "editlock.session.grace-period (" + grace + ") must be shorter than editlock.session.idle-timeout ("
                            + idle + "): a socket that dropped would keep its locks after its user counts as gone");
        }
        return wrong;
    }
}
