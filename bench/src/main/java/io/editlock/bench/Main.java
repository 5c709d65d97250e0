package io.editlock.bench;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The load generator of bench/run. One sub-command per scenario; each appends one JSON line per
 * run to {@code --out} and prints it; {@code report} turns the lines into the markdown report.
 * See docs/benchmarks.md.
 */
public final class Main {

    private static final String USAGE = """
            usage: java -jar editlock-bench.jar <command> [--name value ...]
              echo        --url U --sockets "10 100 1000" --warmup-ms --measure-ms --runs
              locks       --url U[,U2] --sockets "10 100 1000" --warmup-ms --measure-ms --runs [--label L]
                          [--paired-echo true]   (an echo window before every lock window)
                          [--socketio true]      (the lock window again over Socket.IO, right after)
                          echo, locks, twonodes: [--server-pids PID[,PID2] --redis-pid PID] for CPU time per op
              warmup      --url U --sockets 10 --measure-ms M [--socketio true]   (lock and echo loops, not recorded)
              twonodes    --url A --url-b B --sockets 100 --warmup-ms --measure-ms --runs
              evalsha     --redis-port P --requests N --clients C --runs [--redis-pid PID]   (Redis CPU per script run)
              sizes       --url U --redis-port P --sizes "10 100 1000 10000" --locks N --budget-ms M --windows W --runs
              contention  --url U --users 200 --rounds 50 --runs
              fanout      --url U --watchers "1000 5000 10000" --iterations N --runs [--server-pids PID --redis-pid PID]
              memory      --url U --server-pid PID --sockets N --configurators M --settle-ms S --runs
              report      --in results.jsonl --machine machine.properties --out report.md
              keys        --dir D   (jwt-private.pem and jwt-public.pem for the server nodes)
              delete      --url U --redis-port P --items 1000 --entries-per-page 20 [--what configurator|item] [--key-prefix editlock]
                          (what deleting a large configurator, or its top item, costs: bench/large-delete)
              road        --url U --agent-port P --sources src/main/java --classes JAR,JAR --runs 5 [--redis-port P]
                          (the server's files a lock request and a guarded write run: bench/road)
            common: --out results.jsonl --event-loops N --timeout-ms T --connect-concurrency C
            """;

    private Main() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].equals("--help")) {
            System.out.print(USAGE);
            return;
        }
        String command = args[0];
        Options options = Options.parse(args, 1);
        if (command.equals("keys")) {
            Keys.write(Path.of(options.require("dir")));
            return;
        }
        if (command.equals("report")) {
            Report.write(
                    Path.of(options.require("in")),
                    Path.of(options.require("machine")),
                    Path.of(options.require("out")));
            return;
        }
        if (command.equals("road")) {
            Road road = new Road(
                    URI.create(options.require("url")),
                    options.getInt("agent-port", 6300),
                    Path.of(options.get("sources", "src/main/java")),
                    options.getList("classes").stream().map(Path::of).toList(),
                    options.get("redis-port", null) == null
                            ? null
                            : new Resp("127.0.0.1", options.getInt("redis-port", 6379)));
            road.lockRequest(options.getInt("runs", 5));
            road.guardedWrite(options.getInt("runs", 5));
            return;
        }
        Results results = new Results(Path.of(options.get("out", "/dev/null")));
        int runs = options.getInt("runs", 3);
        if (command.equals("evalsha")) {
            CpuMeter cpu = CpuMeter.of(options);
            for (int run = 1; run <= runs; run++) {
                Map<String, String> notes = Results.notes();
                int requests = options.getInt("requests", 100_000);
                CpuMeter.Sample start = cpu.sample();
                Map<String, Object> metrics = RedisCeiling.run(
                        "127.0.0.1",
                        options.getInt("redis-port", 6379),
                        requests,
                        options.getInt("clients", 32),
                        notes);
                // Redis's own CPU per script run (redis-benchmark is not this process: its figure is left out).
                CpuMeter.Sample end = cpu.sample();
                if (start != null
                        && end != null
                        && start.processNanos().containsKey("redis")
                        && end.processNanos().containsKey("redis")) {
                    metrics.put(
                            "cpu_redis_us_per_op",
                            (end.processNanos().get("redis")
                                            - start.processNanos().get("redis"))
                                    / requests
                                    / 1000);
                    CpuMeter.putSyscalls(metrics, start, end, requests, "redis");
                }
                results.emit("evalsha", "clients=" + options.getInt("clients", 32), run, metrics, notes);
            }
            return;
        }
        List<URI> targets = new ArrayList<>();
        for (String url : options.getList("url")) {
            targets.add(URI.create(url));
        }
        int connectConcurrency = options.getInt("connect-concurrency", 64);
        int eventLoops =
                options.getInt("event-loops", Math.max(2, Runtime.getRuntime().availableProcessors()));
        CpuMeter cpu = CpuMeter.of(options);
        try (Net net = new Net(eventLoops, options.getLong("timeout-ms", 30_000))) {
            Api api = new Api(net.vertx, targets.get(0));
            switch (command) {
                case "echo", "locks" -> {
                    RoundTrips.Mode mode = command.equals("echo") ? RoundTrips.Mode.ECHO : RoundTrips.Mode.LOCKS;
                    List<Integer> counts = options.getInts("sockets", "10 100 1000");
                    int most = counts.stream().mapToInt(Integer::intValue).max().orElse(1);
                    RoundTrips.Fixture fixture = mode == RoundTrips.Mode.ECHO
                            ? new RoundTrips.Fixture(Users.login(api, "echo", most), new long[most])
                            : RoundTrips.Fixture.create(api, "lock", most);
                    String label = options.get("label", "");
                    // Paired: an echo window right before each lock window, with the same sockets and frames, so
                    // that each "% of echo" compares two windows a few seconds apart (a VM's speed drifts).
                    boolean pairedEcho =
                            mode.locks() && options.get("paired-echo", "false").equals("true");
                    // The same lock loop over Socket.IO right after each /locking window (docs/socketio.md).
                    boolean socketIo =
                            mode.locks() && options.get("socketio", "false").equals("true");
                    for (int run = 1; run <= runs; run++) {
                        for (int sockets : counts) {
                            String key = (label.isEmpty() ? "" : label + ",") + "sockets=" + sockets;
                            List<RoundTrips.Mode> modes =
                                    new ArrayList<>(pairedEcho ? List.of(RoundTrips.Mode.ECHO, mode) : List.of(mode));
                            if (socketIo) {
                                modes.add(RoundTrips.Mode.SOCKETIO_LOCKS); // right after /locking, with as many sockets
                            }
                            for (RoundTrips.Mode each : modes) {
                                Map<String, String> notes = Results.notes();
                                Map<String, Object> metrics = RoundTrips.run(
                                        net,
                                        targets,
                                        each,
                                        fixture,
                                        sockets,
                                        options.getLong("warmup-ms", 2_000),
                                        options.getLong("measure-ms", 10_000),
                                        connectConcurrency,
                                        cpu,
                                        notes);
                                results.emit(
                                        switch (each) {
                                            case ECHO -> "echo";
                                            case LOCKS -> "locks";
                                            case SOCKETIO_LOCKS -> "locks-socketio";
                                        },
                                        key,
                                        run,
                                        metrics,
                                        notes);
                            }
                        }
                    }
                }
                case "warmup" -> {
                    // Not recorded: a fresh server JVM runs slowly until its hot code is compiled.
                    int sockets = options.getInt("sockets", 10);
                    long millis = options.getLong("measure-ms", 20_000);
                    RoundTrips.Fixture fixture = RoundTrips.Fixture.create(api, "warm", sockets);
                    RoundTrips.run(
                            net,
                            targets,
                            RoundTrips.Mode.LOCKS,
                            fixture,
                            sockets,
                            0,
                            millis,
                            connectConcurrency,
                            cpu,
                            Results.notes());
                    if (options.get("socketio", "false").equals("true")) {
                        RoundTrips.run(
                                net,
                                targets,
                                RoundTrips.Mode.SOCKETIO_LOCKS,
                                fixture,
                                sockets,
                                0,
                                millis / 2,
                                connectConcurrency,
                                cpu,
                                Results.notes());
                    }
                    if (!options.get("echo", "true").equals("false")) {
                        RoundTrips.run(
                                net,
                                targets,
                                RoundTrips.Mode.ECHO,
                                fixture,
                                sockets,
                                0,
                                millis / 2,
                                connectConcurrency,
                                cpu,
                                Results.notes());
                    }
                }
                case "twonodes" -> {
                    // Scenario 2 over one node and over two nodes sharing one Redis, alternately in every run.
                    int sockets = options.getInt("sockets", 100);
                    List<URI> both = List.of(targets.get(0), URI.create(options.require("url-b")));
                    RoundTrips.Fixture fixture = RoundTrips.Fixture.create(api, "nodes", sockets);
                    for (int run = 1; run <= runs; run++) {
                        for (List<URI> nodes : List.of(targets.subList(0, 1), both)) {
                            Map<String, String> notes = Results.notes();
                            Map<String, Object> metrics = RoundTrips.run(
                                    net,
                                    nodes,
                                    RoundTrips.Mode.LOCKS,
                                    fixture,
                                    sockets,
                                    options.getLong("warmup-ms", 2_000),
                                    options.getLong("measure-ms", 10_000),
                                    connectConcurrency,
                                    cpu,
                                    notes);
                            results.emit("locks", "nodes=" + nodes.size() + ",sockets=" + sockets, run, metrics, notes);
                        }
                    }
                }
                case "sizes" -> {
                    Sizes.Fixture fixture = Sizes.create(api, options.getInts("sizes", "10 100 1000 10000"));
                    try (Resp redis = new Resp("127.0.0.1", Integer.parseInt(options.require("redis-port")))) {
                        for (int run = 1; run <= runs; run++) {
                            Sizes.run(
                                    net,
                                    targets.get(0),
                                    redis,
                                    fixture,
                                    options.getInt("locks", 200),
                                    options.getLong("budget-ms", 20_000),
                                    options.getInt("windows", 7),
                                    run,
                                    results);
                        }
                    }
                }
                case "delete" -> {
                    try (Resp redis = new Resp("127.0.0.1", Integer.parseInt(options.require("redis-port")))) {
                        LargeDelete.run(
                                api,
                                redis,
                                options.getInt("items", 1000),
                                options.getInt("entries-per-page", 20),
                                switch (options.get("what", "configurator")) {
                                    case "configurator" -> false;
                                    case "item" -> true;
                                    default -> throw new IllegalArgumentException("--what is configurator or item");
                                },
                                options.get("key-prefix", "editlock"));
                    }
                }
                case "contention" -> {
                    int users = options.getInt("users", 200);
                    Contention.Fixture fixture = Contention.Fixture.create(api, users);
                    for (int run = 1; run <= runs; run++) {
                        Map<String, String> notes = Results.notes();
                        Map<String, Object> metrics = Contention.run(
                                net, targets.get(0), fixture, options.getInt("rounds", 50), connectConcurrency, notes);
                        results.emit("contention", "users=" + users, run, metrics, notes);
                    }
                }
                case "fanout" -> {
                    List<Integer> sizes = new ArrayList<>(options.getInts("watchers", "1000 5000 10000"));
                    sizes.sort(null);
                    FanOut.Fixture fixture = FanOut.Fixture.create(api, sizes.get(sizes.size() - 1));
                    for (int run = 1; run <= runs; run++) {
                        FanOut.run(
                                net,
                                targets.get(0),
                                fixture,
                                sizes,
                                options.getInt("iterations", 50),
                                options.getLong("timeout-ms", 30_000),
                                connectConcurrency,
                                cpu,
                                run,
                                results);
                    }
                }
                case "memory" -> {
                    int sockets = options.getInt("sockets", 10_000);
                    Memory.Fixture fixture = Memory.Fixture.create(api, sockets, options.getInt("configurators", 1000));
                    long pid = Long.parseLong(options.require("server-pid"));
                    for (int run = 1; run <= runs; run++) {
                        Map<String, String> notes = Results.notes();
                        Map<String, Object> metrics = Memory.run(
                                net,
                                targets.get(0),
                                pid,
                                fixture,
                                options.getLong("settle-ms", 3_000),
                                connectConcurrency,
                                notes);
                        results.emit("memory", "sockets=" + sockets, run, metrics, notes);
                        Parallel.sleep(1_000);
                    }
                }
                default -> throw new IllegalArgumentException("unknown command " + command + "\n" + USAGE);
            }
        }
        System.exit(0);
    }
}
