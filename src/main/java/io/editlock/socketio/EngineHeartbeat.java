package io.editlock.socketio;

import io.vertx.core.Vertx;

/**
 * Engine.IO v4's heartbeat, server side: a ping every {@code pingInterval}; a pong due within
 * {@code pingTimeout}, else the session is over (a drop: a closed laptop says nothing).
 */
final class EngineHeartbeat {

    private final Vertx vertx;
    private final EngineSettings settings;
    private final Runnable ping;
    private final Runnable timedOut;
    private long pingTimer = -1;
    private long pongTimer = -1;
    private boolean awaitingPong;
    private boolean stopped;

    EngineHeartbeat(Vertx vertx, EngineSettings settings, Runnable ping, Runnable timedOut) {
        this.vertx = vertx;
        this.settings = settings;
        this.ping = ping;
        this.timedOut = timedOut;
    }

    synchronized void start() {
        if (!stopped) {
            pingTimer = vertx.setTimer(settings.pingIntervalMs(), ignored -> pingNow());
        }
    }

    /** @return false for a pong nobody asked for */
    boolean pong() {
        synchronized (this) {
            if (!awaitingPong) {
                return false;
            }
            awaitingPong = false;
            vertx.cancelTimer(pongTimer);
        }
        start();
        return true;
    }

    synchronized void stop() {
        stopped = true;
        vertx.cancelTimer(pingTimer);
        vertx.cancelTimer(pongTimer);
    }

    /** The pong is awaited before the ping goes out: its answer may come on another event loop at once. */
    private void pingNow() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            awaitingPong = true;
            pongTimer = vertx.setTimer(settings.pingTimeoutMs(), ignored -> timedOut.run());
        }
        ping.run();
    }
}
