package io.editlock.bench;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Closed loop, one request in flight per socket: each socket sends its next request as soon as the
 * reply of the previous one arrives. Echo: a lock-sized frame to {@code /bench/echo}. Locks: lock
 * then unlock a configurator of the socket's own user, again and again. Latency of every request
 * sent inside the measuring window is recorded; ops/s counts those requests.
 */
final class RoundTrips {

    /** LOCKS over /locking, SOCKETIO_LOCKS the same loop over Socket.IO's WebSocket transport. */
    enum Mode {
        ECHO("/bench/echo"),
        LOCKS("/locking"),
        SOCKETIO_LOCKS(SocketIoWire.PATH);

        final String path;

        Mode(String path) {
            this.path = path;
        }

        boolean locks() {
            return this != ECHO;
        }
    }

    private RoundTrips() {}

    /** Set-up for the lock loops: one user and one configurator of their own per socket. */
    record Fixture(List<Users.User> users, long[] configurators) {
        static Fixture create(Api api, String prefix, int sockets) {
            List<Users.User> users = Users.login(api, prefix, sockets);
            List<Long> ids = Parallel.map(
                    sockets, 16, i -> api.createConfigurator(users.get(i).token(), prefix + "-cfg-" + i));
            return new Fixture(users, ids.stream().mapToLong(Long::longValue).toArray());
        }
    }

    static Map<String, Object> run(
            Net net,
            List<URI> targets,
            Mode mode,
            Fixture fixture,
            int sockets,
            long warmupMillis,
            long measureMillis,
            int connectConcurrency,
            CpuMeter cpu,
            Map<String, String> notes) {
        Counters counters = new Counters();
        List<Sock> socks =
                net.connect(targets, mode.path, fixture.users().subList(0, sockets), 0, connectConcurrency, counters);
        for (Sock sock : socks) {
            sock.configuratorId = fixture.configurators()[sock.index];
            sock.locked = false;
        }
        Histogram all = Results.histogram();
        Histogram locks = Results.histogram();
        Histogram unlocks = Results.histogram();
        LongAdder ops = new LongAdder();
        long measureStart = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(warmupMillis);
        long measureEnd = measureStart + TimeUnit.MILLISECONDS.toNanos(measureMillis);
        CountDownLatch stopped = new CountDownLatch(socks.size());
        Loop loop = new Loop(mode, counters, all, locks, unlocks, ops, measureStart, measureEnd, stopped);
        for (Sock sock : socks) {
            sock.onContext(() -> loop.next(sock));
        }
        CpuMeter.Sample cpuAtStart = cpu.sampleAt(measureStart);
        CpuMeter.Sample cpuAtEnd = cpu.sampleAt(measureEnd);
        try {
            stopped.await(warmupMillis + measureMillis + 60_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (mode.locks()) {
            releaseHeld(socks);
        }
        net.closeAll(socks);

        Map<String, Object> metrics = Results.metrics();
        metrics.put("ops_per_s", ops.sum() / (measureMillis / 1000.0));
        metrics.put("p50_ms", Results.ms(all, 50));
        metrics.put("p99_ms", Results.ms(all, 99));
        if (mode.locks()) {
            metrics.put("lock_p50_ms", Results.ms(locks, 50));
            metrics.put("lock_p99_ms", Results.ms(locks, 99));
            metrics.put("unlock_p99_ms", Results.ms(unlocks, 99));
        }
        metrics.put("max_ms", Results.maxMs(all));
        metrics.put("errors", counters.errors.sum());
        metrics.put("closed", counters.unexpectedCloses.sum());
        metrics.put("sockets", (long) socks.size());
        CpuMeter.put(metrics, cpuAtStart, cpuAtEnd, ops.sum());
        notes.put("errors", counters.errorCodes());
        return metrics;
    }

    /** Unlocks what a socket still holds when the window ends, so that the next run starts clean. */
    private static void releaseHeld(List<Sock> socks) {
        CountDownLatch released = new CountDownLatch(socks.size());
        for (Sock sock : socks) {
            sock.onContext(() -> {
                if (!sock.locked) {
                    released.countDown();
                    return;
                }
                sock.send(
                        "unlock-configurator",
                        "{\"configuratorId\":" + sock.configuratorId + "}",
                        (frame, sent, received) -> {
                            sock.locked = false;
                            released.countDown();
                        });
            });
        }
        try {
            released.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Loop(
            Mode mode,
            Counters counters,
            Histogram all,
            Histogram locks,
            Histogram unlocks,
            LongAdder ops,
            long measureStart,
            long measureEnd,
            CountDownLatch stopped) {

        void next(Sock sock) {
            if (System.nanoTime() >= measureEnd) {
                stopped.countDown();
                return;
            }
            String data = "{\"configuratorId\":" + sock.configuratorId + "}";
            String event;
            String expected;
            if (mode == Mode.ECHO) {
                event = "lock-configurator";
                expected = event;
            } else if (sock.locked) {
                event = "unlock-configurator";
                expected = "lock-released";
            } else {
                event = "lock-configurator";
                expected = "lock-acquired";
            }
            boolean isLock = !sock.locked;
            sock.send(event, data, (frame, sent, received) -> {
                if (frame == Frame.CLOSED) {
                    counters.error("CLOSED");
                    stopped.countDown();
                    return;
                }
                if (expected.equals(frame.event())) {
                    if (mode.locks()) {
                        sock.locked = isLock;
                    }
                } else {
                    counters.error(frame.event() + (frame.code() == null ? "" : ":" + frame.code()));
                    if (mode.locks() && "unlock-failed".equals(frame.event())) {
                        sock.locked = false;
                    }
                }
                if (sent >= measureStart && sent < measureEnd) {
                    long took = received - sent;
                    Results.record(all, took);
                    if (mode.locks()) {
                        Results.record(isLock ? locks : unlocks, took);
                    }
                    ops.increment();
                }
                next(sock);
            });
        }
    }
}
