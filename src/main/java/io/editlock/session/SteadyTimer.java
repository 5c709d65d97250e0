package io.editlock.session;

import io.vertx.core.Vertx;
import java.time.Duration;

/**
 * Runs a task every interval as the monotonic clock counts it, for the work that keeps a node's users
 * their pages: its heartbeat, its sweeps of sockets and its lease renewals. Quarkus's scheduler decides
 * whether an {@code every} job is due by the wall clock, and after the wall clock steps back by some time
 * (NTP correcting a VM that ran ahead, a resumed VM) no such job runs for that long: the node's heartbeat
 * would stop, so that the other nodes take it for dead, and the leases of its active users would run out.
 * A Vert.x timer counts by {@link System#nanoTime}.
 *
 * <p>The timers run while the application runs, and not at all where the scheduler is turned off
 * ({@code quarkus.scheduler.enabled=false}), like the node's scheduled jobs.
 */
final class SteadyTimer {

    private final Vertx vertx;
    private final boolean enabled;
    private long timer = -1;

    SteadyTimer(Vertx vertx, boolean enabled) {
        this.vertx = vertx;
        this.enabled = enabled;
    }

    /** Starts running {@code tick} every {@code interval}, the first time one interval from now. */
    synchronized void start(Duration interval, Runnable tick) {
        if (enabled && timer < 0) {
            timer = vertx.setPeriodic(Math.max(1, interval.toMillis()), id -> tick.run());
        }
    }

    synchronized void stop() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }
}
