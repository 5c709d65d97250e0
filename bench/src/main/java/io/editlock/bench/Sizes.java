package io.editlock.bench;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Configurator lock vs configurator size. editlock: one socket locks and unlocks a configurator of
 * N items over /locking (latency of the lock round trip). The seed blog's check-then-act design
 * ({@link SeedDesign}): the same configurator's item ids, against the same Redis, from this process.
 * Commands per lock: CONFIG RESETSTAT, one lock, INFO commandstats, a few times; the median window.
 */
final class Sizes {

    private Sizes() {}

    record Fixture(Users.User user, Map<Integer, Api.Configurator> configurators) {}

    static Fixture create(Api api, List<Integer> sizes) {
        Users.User user = Users.login(api, "size", 1).get(0);
        Map<Integer, Api.Configurator> configurators = new TreeMap<>();
        for (int size : sizes) {
            long started = System.nanoTime();
            configurators.put(size, api.configuratorWithItems(user.token(), "size-" + size, size));
            System.out.printf(
                    "  sizes       configurator of %d items made in %.1f s%n",
                    size, (System.nanoTime() - started) / 1e9);
        }
        return new Fixture(user, configurators);
    }

    /** @param locks lock round trips per size, at most; @param budgetMillis per size and design, at most (at least 3 locks) */
    static void run(
            Net net,
            URI target,
            Resp redis,
            Fixture fixture,
            int locks,
            long budgetMillis,
            int windows,
            int run,
            Results results)
            throws IOException {
        Counters counters = new Counters();
        List<Sock> socks = net.connect(List.of(target), "/locking", List.of(fixture.user()), 0, 1, counters);
        if (socks.isEmpty()) {
            throw new IllegalStateException("cannot connect to " + target);
        }
        Sock sock = socks.get(0);
        SeedDesign seed = new SeedDesign(redis, "seedbench:");
        for (Map.Entry<Integer, Api.Configurator> entry :
                fixture.configurators().entrySet()) {
            int size = entry.getKey();
            Api.Configurator configurator = entry.getValue();
            String data = "{\"configuratorId\":" + configurator.id() + "}";

            // editlock: warm-up, then timed lock round trips, then counted windows
            for (int i = 0; i < 3; i++) {
                request(sock, "lock-configurator", data, "lock-acquired", counters);
                request(sock, "unlock-configurator", data, "lock-released", counters);
            }
            Histogram editlock = Results.histogram();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(budgetMillis);
            for (int i = 0; i < locks && (i < 3 || System.nanoTime() < deadline); i++) {
                Results.record(editlock, request(sock, "lock-configurator", data, "lock-acquired", counters));
                request(sock, "unlock-configurator", data, "lock-released", counters);
            }
            List<Map<String, Long>> editlockWindows = new ArrayList<>();
            for (int i = 0; i < windows; i++) {
                CommandStats.reset(redis);
                request(sock, "lock-configurator", data, "lock-acquired", counters);
                Parallel.sleep(20); // anything the server does right after its reply
                editlockWindows.add(CommandStats.read(redis));
                request(sock, "unlock-configurator", data, "lock-released", counters);
            }

            // the seed design: same items, same Redis
            String socketId = "seed-socket-" + run;
            List<Long> items = configurator.itemIds();
            seed.lockConfigurator(
                    configurator.id(),
                    items,
                    fixture.user().id(),
                    fixture.user().name(),
                    socketId);
            seed.unlockConfigurator(configurator.id(), socketId);
            Histogram seedLatency = Results.histogram();
            long seedCommands = 0;
            deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(budgetMillis);
            for (int i = 0; i < locks && (i < 3 || System.nanoTime() < deadline); i++) {
                long started = System.nanoTime();
                seedCommands = seed.lockConfigurator(
                        configurator.id(),
                        items,
                        fixture.user().id(),
                        fixture.user().name(),
                        socketId);
                Results.record(seedLatency, System.nanoTime() - started);
                seed.unlockConfigurator(configurator.id(), socketId);
            }
            List<Map<String, Long>> seedWindows = new ArrayList<>();
            for (int i = 0; i < Math.min(windows, 3); i++) {
                CommandStats.reset(redis);
                seed.lockConfigurator(
                        configurator.id(),
                        items,
                        fixture.user().id(),
                        fixture.user().name(),
                        socketId);
                seedWindows.add(CommandStats.read(redis));
                seed.unlockConfigurator(configurator.id(), socketId);
            }

            Map<String, Long> editlockCalls = medianWindow(editlockWindows);
            Map<String, Object> metrics = Results.metrics();
            metrics.put("editlock_p50_ms", Results.ms(editlock, 50));
            metrics.put("editlock_p99_ms", Results.ms(editlock, 99));
            metrics.put("editlock_cmds", CommandStats.total(editlockCalls));
            metrics.put("editlock_scripts", CommandStats.scripts(editlockCalls));
            metrics.put("seed_p50_ms", Results.ms(seedLatency, 50));
            metrics.put("seed_p99_ms", Results.ms(seedLatency, 99));
            metrics.put("seed_cmds", seedCommands);
            metrics.put("seed_cmds_counted", CommandStats.total(medianWindow(seedWindows)));
            metrics.put("locks", editlock.getTotalCount());
            metrics.put("seed_locks", seedLatency.getTotalCount());
            metrics.put("errors", counters.errors.sum());
            Map<String, String> notes = Results.notes();
            notes.put("editlock_commands", editlockCalls.toString());
            notes.put("errors", counters.errorCodes());
            results.emit("sizes", "items=" + size, run, metrics, notes);
        }
        net.closeAll(socks);
    }

    /** The window with the median total: a reaper pass that fell into one window does not count. */
    private static Map<String, Long> medianWindow(List<Map<String, Long>> windows) {
        List<Map<String, Long>> sorted = new ArrayList<>(windows);
        sorted.sort((a, b) -> Long.compare(CommandStats.total(a), CommandStats.total(b)));
        return sorted.isEmpty() ? Collections.emptyMap() : sorted.get(sorted.size() / 2);
    }

    /** One request from the main thread, waiting for its reply: @return the round trip in nanoseconds */
    static long request(Sock sock, String event, String data, String expected, Counters counters) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        sock.onContext(() -> sock.send(event, data, (frame, sent, received) -> {
            if (!expected.equals(frame.event())) {
                counters.error(frame.event() + (frame.code() == null ? "" : ":" + frame.code()));
            }
            done.complete(received - sent);
        }));
        return Parallel.await(done, 120);
    }
}
