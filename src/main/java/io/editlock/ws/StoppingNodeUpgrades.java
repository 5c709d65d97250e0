package io.editlock.ws;

import io.editlock.session.SessionLifecycle;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * A stopping node takes no new sockets (docs/protocol.md §5): an upgrade to {@code /locking} is refused
 * with 503 before it is accepted, rather than accepted and closed at once with 1001. A proxy then
 * tries another node for the same request ({@code proxy_next_upstream ... http_503} in nginx), and a
 * client's reconnect is not spent on a node that is going away.
 */
@ApplicationScoped
public class StoppingNodeUpgrades {

    private static final int SERVICE_UNAVAILABLE = 503;

    private final SessionLifecycle lifecycle;

    public StoppingNodeUpgrades(SessionLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    void install(@Observes Router router) {
        router.route(LockingSocket.PATH).order(Integer.MIN_VALUE + 1).handler(this::refuseWhileStopping);
    }

    private void refuseWhileStopping(RoutingContext context) {
        if (!lifecycle.stopping()) {
            context.next();
            return;
        }
        context.response()
                .setStatusCode(SERVICE_UNAVAILABLE)
                .putHeader("Retry-After", "1")
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end();
    }
}
