package io.editlock.bench;

import io.vertx.core.Promise;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;

/**
 * Fan-out: W sockets (each its own user) watch one configurator; another user locks and unlocks it
 * again and again. Per lock: the time from the grant (the locker's lock-acquired arriving) to the
 * last watcher's lock-updated showing the lock; also each watcher's delay. The next lock waits
 * until every watcher has seen the unlock. Watcher counts grow within a run (1,000, then 4,000
 * more, ...), spread over the generator's event loops. With the processes' ids it also measures
 * the CPU time and system calls per change seen by a watcher.
 */
final class FanOut {

    private FanOut() {}

    record Fixture(List<Users.User> watchers, Users.User locker, long configuratorId) {
        static Fixture create(Api api, int watchers) {
            List<Users.User> users = Users.login(api, "watch", watchers + 1);
            long configurator =
                    Parallel.await(api.createConfigurator(users.get(0).token(), "watched"), 60);
            return new Fixture(users.subList(1, users.size()), users.get(0), configurator);
        }
    }

    /** What every watcher waits for in one phase (a lock or an unlock). */
    private static final class Phase {
        final int id;
        final boolean locked;
        final AtomicInteger remaining;
        final AtomicLongArray arrivals;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Phase(int id, boolean locked, int watchers) {
            this.id = id;
            this.locked = locked;
            this.remaining = new AtomicInteger(watchers);
            this.arrivals = new AtomicLongArray(watchers);
            if (watchers == 0) {
                done.complete(null);
            }
        }
    }

    private static volatile Phase current;

    static void run(
            Net net,
            URI target,
            Fixture fixture,
            List<Integer> sizes,
            int iterations,
            long timeoutMillis,
            int connectConcurrency,
            CpuMeter cpu,
            int run,
            Results results) {
        Counters counters = new Counters();
        String data = "{\"configuratorId\":" + fixture.configuratorId() + "}";
        List<Sock> lockers =
                net.connect(List.of(target), "/locking", List.of(fixture.locker()), 1_000_000, 1, counters);
        if (lockers.isEmpty()) {
            throw new IllegalStateException("cannot connect the locker");
        }
        Sock locker = lockers.get(0);
        List<Sock> watchers = new ArrayList<>();
        int phaseId = 0;
        for (int size : sizes) {
            long connectStarted = System.nanoTime();
            List<Sock> added = net.connect(
                    List.of(target),
                    "/locking",
                    fixture.watchers().subList(watchers.size(), size),
                    watchers.size(),
                    connectConcurrency,
                    counters);
            for (Sock sock : added) {
                sock.onBroadcast = frame -> arrived(sock, frame);
            }
            watchAll(added, data, counters, connectConcurrency);
            watchers.addAll(added);
            double connectSeconds = (System.nanoTime() - connectStarted) / 1e9;

            // Signed (a watcher can have the change before the locker has its reply): exact, from sorted samples.
            Samples last = new Samples();
            Samples deliveries = new Samples();
            Histogram fromRequest = Results.histogram();
            Histogram lockReply = Results.histogram();
            long missed = 0;
            CpuMeter.Sample cpuStart = cpu.sample();
            for (int i = 0; i < iterations; i++) {
                Phase lock = new Phase(phaseId++, true, watchers.size());
                current = lock;
                long[] times = send(locker, "lock-configurator", data, "lock-acquired", counters);
                missed += await(lock, timeoutMillis);
                long grant = times[1];
                Results.record(lockReply, times[1] - times[0]);
                long latest = Long.MIN_VALUE;
                for (int w = 0; w < watchers.size(); w++) {
                    long arrival = lock.arrivals.get(w);
                    if (arrival != 0) {
                        deliveries.add(arrival - grant);
                        latest = Math.max(latest, arrival);
                    }
                }
                if (latest != Long.MIN_VALUE) {
                    last.add(latest - grant);
                    Results.record(fromRequest, latest - times[0]);
                }
                Phase unlock = new Phase(phaseId++, false, watchers.size());
                current = unlock;
                send(locker, "unlock-configurator", data, "lock-released", counters);
                missed += await(unlock, timeoutMillis);
            }
            current = null;
            Map<String, Object> metrics = Results.metrics();
            // Per change seen by a watcher (a lock and an unlock each reach every watcher, as one frame and
            // two): what one more watcher costs each process, the locker's own requests spread thin over them.
            CpuMeter.put(metrics, cpuStart, cpu.sample(), 2L * iterations * watchers.size());
            metrics.put("last_p50_ms", last.ms(50));
            metrics.put("last_p99_ms", last.ms(99));
            metrics.put("last_max_ms", last.ms(100));
            metrics.put("from_request_p50_ms", Results.ms(fromRequest, 50));
            metrics.put("from_request_p99_ms", Results.ms(fromRequest, 99));
            metrics.put("lock_reply_p50_ms", Results.ms(lockReply, 50));
            metrics.put("delivery_p50_ms", deliveries.ms(50));
            metrics.put("delivery_p99_ms", deliveries.ms(99));
            metrics.put("missed", missed);
            metrics.put("errors", counters.errors.sum());
            metrics.put("closed", counters.unexpectedCloses.sum());
            metrics.put("watchers", (long) watchers.size());
            metrics.put("connect_s", connectSeconds);
            Map<String, String> notes = Results.notes();
            notes.put("errors", counters.errorCodes());
            results.emit("fanout", "watchers=" + size, run, metrics, notes);
        }
        net.closeAll(watchers);
        net.closeAll(lockers);
    }

    private static void arrived(Sock sock, Frame frame) {
        if (!"lock-updated".equals(frame.event())) {
            return;
        }
        Phase phase = current;
        if (phase == null
                || frame.hasLocks() != phase.locked
                || sock.seen == phase.id
                || sock.index >= phase.arrivals.length()) {
            return;
        }
        sock.seen = phase.id;
        phase.arrivals.set(sock.index, System.nanoTime());
        if (phase.remaining.decrementAndGet() == 0) {
            phase.done.complete(null);
        }
    }

    /** @return watchers that did not see the phase in time (counted as errors too) */
    private static long await(Phase phase, long timeoutMillis) {
        try {
            phase.done.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return 0;
        } catch (TimeoutException e) {
            return Math.max(0, phase.remaining.get());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static void watchAll(List<Sock> socks, String data, Counters counters, int concurrency) {
        Parallel.map(socks.size(), concurrency, i -> {
            Sock sock = socks.get(i);
            Promise<Void> watched = Promise.promise();
            sock.onContext(() -> sock.send("watch", data, (frame, sent, received) -> {
                if (!"lock-updated".equals(frame.event())) {
                    counters.error("watch:" + frame.event() + (frame.code() == null ? "" : ":" + frame.code()));
                }
                watched.complete();
            }));
            return watched.future();
        });
    }

    /** @return {sent, received} of one request from the main thread */
    static long[] send(Sock sock, String event, String data, String expected, Counters counters) {
        CompletableFuture<long[]> done = new CompletableFuture<>();
        sock.onContext(() -> sock.send(event, data, (frame, sent, received) -> {
            if (!expected.equals(frame.event())) {
                counters.error(frame.event() + (frame.code() == null ? "" : ":" + frame.code()));
            }
            done.complete(new long[] {sent, received});
        }));
        return Parallel.await(done, 120);
    }

    /** Signed nanosecond samples; exact percentiles (nearest rank) in milliseconds. */
    private static final class Samples {
        private long[] values = new long[1024];
        private int size;

        void add(long nanos) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = nanos;
        }

        double ms(double percentile) {
            if (size == 0) {
                return 0.0;
            }
            long[] sorted = Arrays.copyOf(values, size);
            Arrays.sort(sorted);
            int rank = (int) Math.ceil(percentile / 100.0 * size);
            return sorted[Math.min(size - 1, Math.max(0, rank - 1))] / 1e6;
        }
    }
}
