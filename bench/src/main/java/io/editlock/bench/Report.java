package io.editlock.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The markdown report of one bench/run: every figure is the median over the runs of its scenario
 * and configuration, with min and max; ratios are taken between medians.
 */
final class Report {

    /** scenario -> key -> metric -> one value per run */
    private final Map<String, Map<String, Map<String, List<Double>>>> data = new LinkedHashMap<>();
    /** scenario -> key -> notes of every run */
    private final Map<String, Map<String, List<Map<String, String>>>> notes = new LinkedHashMap<>();

    private final StringBuilder md = new StringBuilder();

    private Report() {}

    static void write(Path in, Path machineFile, Path out) throws IOException {
        Report report = new Report();
        for (String line : Files.readAllLines(in, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode node = Results.JSON.readTree(line);
            String scenario = node.get("scenario").asText();
            String key = node.get("key").asText();
            Map<String, List<Double>> metrics = report.data
                    .computeIfAbsent(scenario, s -> new LinkedHashMap<>())
                    .computeIfAbsent(key, k -> new LinkedHashMap<>());
            node.get("metrics")
                    .fields()
                    .forEachRemaining(e -> metrics.computeIfAbsent(e.getKey(), k -> new ArrayList<>())
                            .add(e.getValue().asDouble()));
            Map<String, String> runNotes = new LinkedHashMap<>();
            node.get("notes")
                    .fields()
                    .forEachRemaining(e -> runNotes.put(e.getKey(), e.getValue().asText()));
            report.notes
                    .computeIfAbsent(scenario, s -> new LinkedHashMap<>())
                    .computeIfAbsent(key, k -> new ArrayList<>())
                    .add(runNotes);
        }
        Properties machine = new Properties();
        machine.load(new StringReader(Files.readString(machineFile, StandardCharsets.UTF_8)));
        report.render(machine);
        Files.writeString(out, report.md.toString(), StandardCharsets.UTF_8);
    }

    private void render(Properties m) {
        boolean smoke = "smoke".equals(m.getProperty("mode"));
        line("# editlock benchmarks: " + m.getProperty("date") + ", " + m.getProperty("host")
                + (smoke ? " (SMOKE RUN)" : ""));
        line("");
        if (smoke) {
            line("> **Smoke run: tiny numbers that only prove the harness works end to end. These figures say nothing"
                    + " about editlock's performance; replace them with a full `bench/run` on a quiet machine.**");
            line("");
        }
        line("Made by `bench/run" + (smoke ? " --smoke" : "")
                + "` (see docs/benchmarks.md). Every figure is the **median of " + m.getProperty("runs")
                + " runs**, with (min–max) when the runs differ; ratios are between medians.");
        line("");
        line("## Machine and settings");
        line("");
        line("| | |");
        line("|---|---|");
        for (String key : List.of(
                "cpu", "cores", "memory", "os", "jdk", "redis", "load", "commit", "server", "generator", "knobs")) {
            if (m.getProperty(key) != null) {
                line("| " + key + " | " + m.getProperty(key).replace("|", "\\|") + " |");
            }
        }
        line("");
        line("Server, Redis and load generator share this machine. The per-user rate limit is raised for the benchmark"
                + " (`-Deditlock.rate-limit.lock-requests-per-second=1000000`; the default, 50 a second, would refuse most"
                + " of the lock loop's requests with RATE_LIMITED). Everything talks over 127.0.0.1. The server runs as shipped,"
                + " audit log included (one line per grant and release, to a file here).");
        line("");

        ceilings();
        roundTrips();
        sizes();
        contention();
        fanOut();
        memory();
        twoNodes();
    }

    private void ceilings() {
        if (!data.containsKey("echo") && !data.containsKey("evalsha")) {
            return;
        }
        line("## 1. Ceilings");
        line("");
        line(
                "The generator against `/bench/echo` (same server, same token check at the upgrade, a lock-sized frame sent"
                        + " back as is: no lock decision, no Redis), one request in flight per socket:");
        line("");
        line("| sockets | ops/s | p50 ms | p99 ms | errors | closed sockets |");
        line("|---:|---:|---:|---:|---:|---:|");
        for (String key : keys("echo")) {
            line("| " + value(key) + " | " + cell("echo", key, "ops_per_s", 0) + " | " + cell("echo", key, "p50_ms", 3)
                    + " | " + cell("echo", key, "p99_ms", 3) + " | " + cell("echo", key, "errors", 0) + " | "
                    + cell("echo", key, "closed", 0) + " |");
        }
        line("");
        for (String key : keys("evalsha")) {
            line("Redis alone: `" + note("evalsha", key, "command") + "` against the same Redis: **"
                    + cell("evalsha", key, "ops_per_s", 0)
                    + " ops/s**, p50 " + cell("evalsha", key, "p50_ms", 3) + " ms, p99 "
                    + cell("evalsha", key, "p99_ms", 3) + " ms"
                    + (!values("evalsha", key, "cpu_redis_us_per_op").isEmpty()
                            ? ", Redis CPU " + cell("evalsha", key, "cpu_redis_us_per_op", 1) + " µs per run"
                            : "")
                    + (!values("evalsha", key, "syscalls_redis_reads_per_op").isEmpty()
                            ? ", " + cell("evalsha", key, "syscalls_redis_reads_per_op", 2) + " reads and "
                                    + cell("evalsha", key, "syscalls_redis_writes_per_op", 2)
                                    + " writes (system calls) per run"
                            : "")
                    + ".");
        }
        line("");
    }

    private void roundTrips() {
        if (keys("locks").stream().allMatch(k -> k.startsWith("nodes="))) {
            return;
        }
        line("## 2. Lock round trips");
        line("");
        line(
                "Each socket is its own user and locks and unlocks a configurator of its own, one request in flight per socket."
                        + " One op = one request and its direct reply (a lock or an unlock). % of echo: ops/s against the echo ceiling"
                        + " with as many sockets (and p50 against its p50), run by run: each lock window follows an echo window with the"
                        + " same sockets, and the figure is the median of the per-run ratios, so that a machine whose speed drifts"
                        + " between runs moves both sides; % of EVALSHA: against the redis-benchmark ceiling.");
        line("");
        line(
                "| sockets | ops/s | % of echo | % of EVALSHA | p50 ms | p50 ÷ echo p50 | p99 ms | lock p50 ms | lock p99 ms | errors | closed sockets |");
        line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        String evalsha = first(keys("evalsha"));
        for (String key : keys("locks")) {
            if (key.startsWith("nodes=")) {
                continue;
            }
            line("| " + value(key) + " | " + cell("locks", key, "ops_per_s", 0) + " | "
                    + ratio("locks", key, "echo", key, "ops_per_s")
                    + " | " + (evalsha == null ? "–" : ratio("locks", key, "evalsha", evalsha, "ops_per_s")) + " | "
                    + cell("locks", key, "p50_ms", 3) + " | " + times("locks", key, "echo", key, "p50_ms") + " | "
                    + cell("locks", key, "p99_ms", 3) + " | " + cell("locks", key, "lock_p50_ms", 3)
                    + " | " + cell("locks", key, "lock_p99_ms", 3) + " | " + cell("locks", key, "errors", 0) + " | "
                    + cell("locks", key, "closed", 0) + " |");
        }
        errorNotes("locks");
        line("");
        socketIo();
        cpuPerOp();
    }

    /** The lock loop over Socket.IO's WebSocket transport, each window right after its /locking window. */
    private void socketIo() {
        if (keys("locks-socketio").isEmpty()) {
            return;
        }
        line("### Over Socket.IO");
        line("");
        line(
                "The same loop over Socket.IO (WebSocket transport, namespace /locking, each reply as the request's ack), each"
                        + " window right after the /locking window with as many sockets; % of /locking and p99 ÷ /locking p99 are the"
                        + " medians of the per-run ratios. The aim: at least 85 % of /locking's rate, p99 within 1.2×.");
        line("");
        line(
                "| sockets | ops/s | % of /locking | p50 ms | p99 ms | p99 ÷ /locking p99 | lock p99 ms | errors | closed sockets |");
        line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (String key : keys("locks-socketio")) {
            Double p99 = pairedRatio("locks-socketio", key, "locks", key, "p99_ms");
            line("| " + value(key) + " | " + cell("locks-socketio", key, "ops_per_s", 0) + " | "
                    + ratio("locks-socketio", key, "locks", key, "ops_per_s") + " | "
                    + cell("locks-socketio", key, "p50_ms", 3) + " | "
                    + cell("locks-socketio", key, "p99_ms", 3) + " | "
                    + (p99 == null ? "–" : String.format(Locale.ROOT, "%.2f×", p99))
                    + " | " + cell("locks-socketio", key, "lock_p99_ms", 3) + " | "
                    + cell("locks-socketio", key, "errors", 0) + " | "
                    + cell("locks-socketio", key, "closed", 0) + " |");
        }
        errorNotes("locks-socketio");
        line("");
    }

    /**
     * Read and write system calls per op of the server and Redis, echo beside locks: what an op makes
     * each process ask of the kernel, which no code above the socket makes cheaper.
     */
    private void syscallsPerOp(List<String[]> rows) {
        List<String[]> counted = rows.stream()
                .filter(row -> median(row[0], row[1], "syscalls_server_writes_per_op") != null)
                .toList();
        if (counted.isEmpty()) {
            return;
        }
        line("System calls per op (/proc/PID/io: `read`/`readv` and `write`/`writev` of all threads, the log writer's"
                + " included; `epoll_wait`, `sendto` and `recvfrom` are not counted):");
        line("");
        line("| loop | sockets | server reads | server writes | Redis reads | Redis writes |");
        line("|---|---:|---:|---:|---:|---:|");
        for (String[] row : counted) {
            line("| " + row[0] + " | " + value(row[1])
                    + cells(
                            row[0],
                            row[1],
                            2,
                            "syscalls_server_reads_per_op",
                            "syscalls_server_writes_per_op",
                            "syscalls_redis_reads_per_op",
                            "syscalls_redis_writes_per_op")
                    + " |");
        }
        line("");
    }

    /**
     * CPU time per op of each process, echo beside locks: when the cores are the limit, the ratio of
     * the totals is the most a lock loop can reach of the echo rate on this machine.
     */
    private void cpuPerOp() {
        List<String[]> rows = new ArrayList<>();
        for (String scenario : List.of("echo", "locks")) {
            for (String key : keys(scenario)) {
                if (!key.startsWith("nodes=") && median(scenario, key, "cpu_us_per_op") != null) {
                    rows.add(new String[] {scenario, key});
                }
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        line("### CPU time per op");
        line("");
        line(
                "User + system CPU time of each process during the measuring window (/proc), divided by the window's ops;"
                        + " *machine busy*: all cores, all processes. When the machine is busy near 100 %, the cores are the limit, and"
                        + " the lock loop can reach at most *echo CPU ÷ lock CPU* of the echo rate here, however the work is scheduled.");
        line("");
        line("| loop | sockets | server µs | generator µs | Redis µs | all µs | machine busy |");
        line("|---|---:|---:|---:|---:|---:|---:|");
        for (String[] row : rows) {
            line("| " + row[0] + " | " + value(row[1])
                    + cells(
                            row[0],
                            row[1],
                            1,
                            "cpu_server_us_per_op",
                            "cpu_generator_us_per_op",
                            "cpu_redis_us_per_op",
                            "cpu_us_per_op")
                    + " | " + cell(row[0], row[1], "machine_busy_pct", 0) + " % |");
        }
        line("");
        syscallsPerOp(rows);
        for (String key : keys("locks")) {
            Double lockOverEcho = pairedRatio("locks", key, "echo", key, "cpu_us_per_op");
            if (key.startsWith("nodes=") || lockOverEcho == null || lockOverEcho == 0) {
                continue;
            }
            line("- " + value(key) + " sockets: a lock op costs " + times(lockOverEcho, 1.0)
                    + " the CPU of an echo op (server "
                    + times("locks", key, "echo", key, "cpu_server_us_per_op") + ", generator "
                    + times("locks", key, "echo", key, "cpu_generator_us_per_op") + ", plus "
                    + number(orZero("locks", key, "cpu_redis_us_per_op"), 1)
                    + " µs in Redis): CPU-bound, the lock loop tops out near "
                    + String.format(Locale.ROOT, "%.0f %%", 100 / lockOverEcho)
                    + " of the echo rate on this machine (measured: "
                    + ratio("locks", key, "echo", key, "ops_per_s") + ")." + withoutServer(key));
        }
        line("");
    }

    /** The bound if the server cost nothing: what the generator and Redis alone spend on a lock op. */
    private String withoutServer(String key) {
        Double generator = median("locks", key, "cpu_generator_us_per_op");
        Double redis = median("locks", key, "cpu_redis_us_per_op");
        Double echo = median("echo", key, "cpu_us_per_op");
        if (generator == null || redis == null || echo == null || generator + redis == 0) {
            return "";
        }
        Double server = median("locks", key, "cpu_server_us_per_op");
        Double echoServer = median("echo", key, "cpu_server_us_per_op");
        String budget = server == null || echoServer == null
                ? ""
                : String.format(
                        Locale.ROOT,
                        " To reach 50 %% (40 %%) of the echo rate, the server could spend at most %s (%s) per lock"
                                + " op, beside the generator and Redis as measured; it spends %.1f µs, and a bare echo costs it %.1f µs.",
                        budget(2 * echo - generator - redis),
                        budget(2.5 * echo - generator - redis),
                        server,
                        echoServer);
        return String.format(
                        Locale.ROOT,
                        " Even a server that cost no CPU at all would leave the generator and Redis %.1f µs per lock"
                                + " op: at most %.0f %% of the echo rate here.",
                        generator + redis,
                        100 * echo / (generator + redis))
                + budget;
    }

    private static String budget(double micros) {
        return micros <= 0
                ? "nothing (already spent by the generator and Redis)"
                : String.format(Locale.ROOT, "%.1f µs", micros);
    }

    private double orZero(String scenario, String key, String metric) {
        Double value = median(scenario, key, metric);
        return value == null ? 0 : value;
    }

    private void sizes() {
        if (!data.containsKey("sizes")) {
            return;
        }
        line("## 3. Configurator lock vs configurator size");
        line("");
        line("One socket locks and unlocks a configurator of N items (a tree, ten children per item). Beside it, the"
                + " check-then-set design that editlock replaces, rebuilt in the bench against the same Redis: check every item's"
                + " filters and dependencies key, then SET an `item:{id}` key per item, one awaited round trip per command"
                + " (its database query for the item ids is given for free). Commands per lock: CONFIG RESETSTAT, one lock,"
                + " INFO commandstats (commands run inside a script count, and so does the EVALSHA that runs it)."
                + " The seed design runs from the bench straight to Redis, with no WebSocket hop and no server in between,"
                + " which favours it; editlock's figure is a whole WebSocket round trip (compare the echo p50 above).");
        line("");
        line(
                "| items | editlock p50 ms | editlock p99 ms | editlock commands/lock, of which scripts | seed p50 ms | seed p99 ms"
                        + " | seed commands/lock | seed ÷ editlock, p50 | seed ÷ editlock, commands |");
        line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (String key : keys("sizes")) {
            line("| " + value(key) + " | " + cell("sizes", key, "editlock_p50_ms", 3) + " | "
                    + cell("sizes", key, "editlock_p99_ms", 3)
                    + " | " + cell("sizes", key, "editlock_cmds", 0) + ", " + cell("sizes", key, "editlock_scripts", 0)
                    + " scripts | "
                    + cell("sizes", key, "seed_p50_ms", 3) + " | " + cell("sizes", key, "seed_p99_ms", 3) + " | "
                    + cell("sizes", key, "seed_cmds", 0) + " | " + times("sizes", key, "seed_p50_ms", "editlock_p50_ms")
                    + " | "
                    + times("sizes", key, "seed_cmds", "editlock_cmds") + " |");
        }
        line("");
        if (data.getOrDefault("sizes", Map.of()).containsKey("items=1000")) {
            line("**At 1,000 items** the seed design's lock takes "
                    + times("sizes", "items=1000", "seed_p50_ms", "editlock_p50_ms")
                    + " the time of editlock's (p50) and " + times("sizes", "items=1000", "seed_cmds", "editlock_cmds")
                    + " its Redis commands.");
            line("");
        }
        String first = first(keys("sizes"));
        if (first != null) {
            line("editlock's commands per lock, per command (" + first + ", first run): `"
                    + note("sizes", first, "editlock_commands") + "`.");
            line("The seed design's count is its own (3 × items + 8 round trips); INFO commandstats agreed: "
                    + String.join(
                            ", ",
                            keys("sizes").stream()
                                    .map(k -> value(k) + " items → " + cell("sizes", k, "seed_cmds_counted", 0))
                                    .toList())
                    + ".");
            line("");
        }
        errorNotes("sizes");
    }

    private void contention() {
        if (!data.containsKey("contention")) {
            return;
        }
        line("## 4. Contention");
        line("");
        line(
                "Every socket (each its own user) asks for the same configurator at once; the winner unlocks before the next"
                        + " round. Time: from the first request sent to the last answer received.");
        line("");
        line(
                "| users | rounds per run | rounds with exactly one winner | answered p50 ms | answered p99 ms | answered max ms | errors | closed sockets |");
        line("|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (String key : keys("contention")) {
            long rounds = sum("contention", key, "rounds");
            long good = sum("contention", key, "one_winner");
            line("| " + value(key) + " | " + cell("contention", key, "rounds", 0) + " | " + good + " of " + rounds
                    + " (all runs) | "
                    + cell("contention", key, "all_answered_p50_ms", 3) + " | "
                    + cell("contention", key, "all_answered_p99_ms", 3) + " | "
                    + cell("contention", key, "all_answered_max_ms", 3) + " | " + cell("contention", key, "errors", 0)
                    + " | "
                    + cell("contention", key, "closed", 0) + " |");
            for (Map<String, String> run : notes.get("contention").get(key)) {
                if (!run.getOrDefault("bad_rounds", "").isEmpty()) {
                    line("");
                    line("**Not exactly one winner:** " + run.get("bad_rounds"));
                }
            }
        }
        errorNotes("contention");
        line("");
    }

    private void fanOut() {
        if (!data.containsKey("fanout")) {
            return;
        }
        line("## 5. Fan-out");
        line("");
        line(
                "W sockets (each its own user) watch one configurator; another user locks and unlocks it repeatedly. Per lock:"
                        + " **last watcher** = the last watcher's lock-updated minus the grant (the locker's own lock-acquired arriving);"
                        + " **negative** when every watcher had the change before the locker had its reply (the change is published from"
                        + " inside the lock script). **From request** = from the locker's request to the last watcher's lock-updated."
                        + " **Lock reply** = the locker's own lock round trip. **Delivery** = each watcher's lock-updated minus the grant."
                        + " p50/p99 over the locks (delivery: over every watcher of every lock).");
        line("");
        line(
                "| watchers | last watcher p50 ms | last watcher p99 ms | from request p50 ms | from request p99 ms | lock reply p50 ms | delivery p50 ms | delivery p99 ms | missed | errors | closed sockets |");
        line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (String key : keys("fanout")) {
            line("| " + value(key) + " | " + cell("fanout", key, "last_p50_ms", 2) + " | "
                    + cell("fanout", key, "last_p99_ms", 2) + " | "
                    + cell("fanout", key, "from_request_p50_ms", 2) + " | "
                    + cell("fanout", key, "from_request_p99_ms", 2) + " | "
                    + cell("fanout", key, "lock_reply_p50_ms", 2) + " | "
                    + cell("fanout", key, "delivery_p50_ms", 2) + " | " + cell("fanout", key, "delivery_p99_ms", 2)
                    + " | "
                    + cell("fanout", key, "missed", 0) + " | " + cell("fanout", key, "errors", 0) + " | "
                    + cell("fanout", key, "closed", 0) + " |");
        }
        errorNotes("fanout");
        line("");
        List<String> measured = keys("fanout").stream()
                .filter(key -> median("fanout", key, "cpu_server_us_per_op") != null)
                .toList();
        if (!measured.isEmpty()) {
            line(
                    "Per change seen by a watcher (CPU time and system calls of each process over the locks, divided by"
                            + " locks × 2 × watchers; the locker's requests included). A lock reaches a watcher as one frame"
                            + " (`lock-updated`), an unlock as two (`lock-released` and `lock-updated`): 1.5 frames per change.");
            line("");
            line("| watchers | server µs | generator µs | Redis µs | server writes | generator reads |");
            line("|---:|---:|---:|---:|---:|---:|");
            for (String key : measured) {
                line("| " + value(key) + " | " + cell("fanout", key, "cpu_server_us_per_op", 1) + " | "
                        + cell("fanout", key, "cpu_generator_us_per_op", 1) + " | "
                        + cell("fanout", key, "cpu_redis_us_per_op", 2) + " | "
                        + cell("fanout", key, "syscalls_server_writes_per_op", 2) + " | "
                        + cell("fanout", key, "syscalls_generator_reads_per_op", 2) + " |");
            }
            line("");
        }
    }

    private void memory() {
        if (!data.containsKey("memory")) {
            return;
        }
        line("## 6. Memory of idle sockets");
        line("");
        line(
                "N authenticated sockets, each watching a configurator, idle. Server heap after a full GC (`jcmd <pid> GC.run`,"
                        + " `GC.heap_info`) and resident set (VmRSS), before and after; the difference per socket.");
        line("");
        line(
                "| sockets | heap KiB per socket | RSS KiB per socket | heap before → after MiB | RSS before → after MiB | errors | closed sockets |");
        line("|---:|---:|---:|---:|---:|---:|---:|");
        for (String key : keys("memory")) {
            line("| " + value(key) + " | " + cell("memory", key, "heap_per_socket_kib", 1) + " | "
                    + cell("memory", key, "rss_per_socket_kib", 1)
                    + " | " + cell("memory", key, "heap_before_mib", 0) + " → "
                    + cell("memory", key, "heap_after_mib", 0) + " | "
                    + cell("memory", key, "rss_before_mib", 0) + " → " + cell("memory", key, "rss_after_mib", 0) + " | "
                    + cell("memory", key, "errors", 0) + " | " + cell("memory", key, "closed", 0) + " |");
        }
        errorNotes("memory");
        line("");
    }

    private void twoNodes() {
        if (keys("locks").stream().noneMatch(k -> k.startsWith("nodes="))) {
            return;
        }
        line("## 7. Two nodes");
        line("");
        line(
                "Scenario 2 with the sockets split over two server nodes (alternately) sharing one Redis, beside the same on one node"
                        + " (measured in the same step).");
        line("");
        line("| nodes, sockets | ops/s | vs one node | p50 ms | p99 ms | lock p99 ms | errors | closed sockets |");
        line("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (String key : keys("locks")) {
            if (!key.startsWith("nodes=")) {
                continue;
            }
            String one = key.replaceFirst("nodes=\\d+", "nodes=1");
            line("| " + key.replace(",", ", ") + " | " + cell("locks", key, "ops_per_s", 0) + " | "
                    + ratio("locks", key, "locks", one, "ops_per_s")
                    + " | " + cell("locks", key, "p50_ms", 3) + " | " + cell("locks", key, "p99_ms", 3) + " | "
                    + cell("locks", key, "lock_p99_ms", 3)
                    + " | " + cell("locks", key, "errors", 0) + " | " + cell("locks", key, "closed", 0) + " |");
        }
        line("");
    }

    // --- helpers ---------------------------------------------------------------------------------

    private void errorNotes(String scenario) {
        for (Map.Entry<String, List<Map<String, String>>> entry :
                notes.getOrDefault(scenario, Map.of()).entrySet()) {
            for (int run = 0; run < entry.getValue().size(); run++) {
                String errors = entry.getValue().get(run).getOrDefault("errors", "");
                if (!errors.isEmpty()) {
                    line("");
                    line("Errors in " + scenario + " " + entry.getKey() + ", run " + (run + 1) + ": " + errors);
                }
            }
        }
    }

    private List<String> keys(String scenario) {
        return new ArrayList<>(data.getOrDefault(scenario, Map.of()).keySet());
    }

    private static String first(List<String> keys) {
        return keys.isEmpty() ? null : keys.get(0);
    }

    /** "sockets=10" -> "10"; "nodes=2,sockets=100" stays. */
    private static String value(String key) {
        return key.contains(",") ? key : key.substring(key.indexOf('=') + 1);
    }

    private String note(String scenario, String key, String name) {
        List<Map<String, String>> runs = notes.getOrDefault(scenario, Map.of()).getOrDefault(key, List.of());
        return runs.isEmpty() ? "" : runs.get(0).getOrDefault(name, "");
    }

    private List<Double> values(String scenario, String key, String metric) {
        return data.getOrDefault(scenario, Map.of()).getOrDefault(key, Map.of()).getOrDefault(metric, List.of());
    }

    private Double median(String scenario, String key, String metric) {
        return median(values(scenario, key, metric));
    }

    private static Double median(List<Double> figures) {
        List<Double> values = new ArrayList<>(figures);
        if (values.isEmpty()) {
            return null;
        }
        Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    private long sum(String scenario, String key, String metric) {
        return Math.round(values(scenario, key, metric).stream()
                .mapToDouble(Double::doubleValue)
                .sum());
    }

    /** "median (min–max)", or the median alone when every run gave the same. */
    /** " | a | b | …": a cell for each metric, with as many decimals. */
    private String cells(String scenario, String key, int decimals, String... metrics) {
        StringBuilder row = new StringBuilder();
        for (String metric : metrics) {
            row.append(" | ").append(cell(scenario, key, metric, decimals));
        }
        return row.toString();
    }

    private String cell(String scenario, String key, String metric, int decimals) {
        List<Double> values = values(scenario, key, metric);
        if (values.isEmpty()) {
            return "–";
        }
        double min = Collections.min(values);
        double max = Collections.max(values);
        String median = number(median(scenario, key, metric), decimals);
        if (number(min, decimals).equals(number(max, decimals))) {
            return median;
        }
        return median + " (" + number(min, decimals) + (min < 0 ? " to " : "–") + number(max, decimals) + ")";
    }

    private String ratio(String scenario, String key, String baseScenario, String baseKey, String metric) {
        Double ratio = pairedRatio(scenario, key, baseScenario, baseKey, metric);
        return ratio == null ? "–" : String.format(Locale.ROOT, "%.0f %%", 100 * ratio);
    }

    /**
     * value ÷ base, as the median of the per-run ratios when both have a figure for every run (run i of
     * one beside run i of the other, measured close together, so a machine that drifts between runs
     * moves both), else as the ratio of the medians.
     */
    private Double pairedRatio(String scenario, String key, String baseScenario, String baseKey, String metric) {
        List<Double> values = values(scenario, key, metric);
        List<Double> bases = values(baseScenario, baseKey, metric);
        if (!values.isEmpty() && values.size() == bases.size() && bases.stream().noneMatch(base -> base == 0)) {
            List<Double> ratios = new ArrayList<>();
            for (int run = 0; run < values.size(); run++) {
                ratios.add(values.get(run) / bases.get(run));
            }
            return median(ratios);
        }
        Double value = median(scenario, key, metric);
        Double base = median(baseScenario, baseKey, metric);
        return value == null || base == null || base == 0 ? null : value / base;
    }

    private String times(String scenario, String key, String numerator, String denominator) {
        return times(median(scenario, key, numerator), median(scenario, key, denominator));
    }

    private String times(String scenario, String key, String baseScenario, String baseKey, String metric) {
        return times(pairedRatio(scenario, key, baseScenario, baseKey, metric), 1.0);
    }

    private static String times(Double top, Double bottom) {
        if (top == null || bottom == null || bottom == 0) {
            return "–";
        }
        double ratio = top / bottom;
        return String.format(Locale.ROOT, ratio >= 10 ? "%.0f×" : "%.1f×", ratio);
    }

    private static String number(double value, int decimals) {
        if (decimals == 0) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    private void line(String text) {
        md.append(text).append('\n');
    }
}
