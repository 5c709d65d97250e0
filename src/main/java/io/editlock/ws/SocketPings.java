package io.editlock.ws;

import io.editlock.config.EditlockConfig;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Pings every {@code /locking} socket of this node each {@code editlock.websocket.ping-interval}, so
 * that a dead peer is noticed ({@link io.editlock.session.SocketSweeper} drops a socket that answers
 * none within the ping timeout). One timer for the node: a timer per socket would cost every idle
 * socket its share (docs/benchmarks.md, memory). Socket.IO clients have Engine.IO's own heartbeat.
 */
@ApplicationScoped
public class SocketPings {

    private static final Buffer EMPTY = Buffer.buffer();

    private final SessionRegistry registry;
    private final Vertx vertx;
    private final long intervalMillis;
    private long timer = -1;

    public SocketPings(SessionRegistry registry, Vertx vertx, EditlockConfig config) {
        this.registry = registry;
        this.vertx = vertx;
        this.intervalMillis = Math.max(1, config.websocket().pingInterval().toMillis());
    }

    void start(@Observes StartupEvent started) {
        timer = vertx.setPeriodic(intervalMillis, id -> pingAll());
    }

    void stop(@Observes ShutdownEvent stopping) {
        vertx.cancelTimer(timer);
    }

    private void pingAll() {
        for (SocketSession session : registry.all()) {
            if (session.connection() instanceof WebSocketClientConnection socket && socket.isOpen()) {
                // A socket that closes meanwhile fails the ping; its close is handled where it ends.
                socket.connection().sendPing(EMPTY).subscribe().with(ignored -> {}, failure -> {});
            }
        }
    }
}
