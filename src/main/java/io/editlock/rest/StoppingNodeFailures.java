package io.editlock.rest;

import io.editlock.protocol.WireFormat;
import io.editlock.session.SessionLifecycle;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * A node that stops (SIGTERM) keeps answering while it waits for its users to resume elsewhere, but the
 * JVM's exit has begun: Vert.x removes the directory it serves the demo UI's files from, and each of
 * them would fail as a 500 with a stack trace in the log. Such a failure is the node going away, not
 * a fault: it is answered 503 with {@code Retry-After: 1}, as the node's readiness already says, and
 * the connection is closed, so that the browser's next try reaches a node that stays.
 */
@ApplicationScoped
public class StoppingNodeFailures {

    private static final int SERVICE_UNAVAILABLE = 503;
    private static final String MESSAGE = WireFormat.object()
            .put("message", "this server node is stopping: try again")
            .toString();

    private final SessionLifecycle lifecycle;

    public StoppingNodeFailures(SessionLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(this::answer);
    }

    private void answer(RoutingContext context) {
        boolean unexpected = context.statusCode() == -1 || context.statusCode() == 500;
        if (!lifecycle.stopping() || !unexpected || context.response().headWritten()) {
            context.next();
            return;
        }
        context.response()
                .setStatusCode(SERVICE_UNAVAILABLE)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader("Retry-After", "1")
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(MESSAGE);
    }
}
