package io.editlock.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * CPU time that the server, Redis and this generator spend inside one measuring window, read from
 * Linux's /proc (user + system time of each process, and of the whole machine). Divided by the ops of
 * the window it says what one op costs each process, which is what decides how many ops two shared
 * cores can carry: a rate alone moves with whatever else the host is doing, the CPU per op much less.
 * Beside the time, the read and write system calls of each process (/proc/PID/io): on a machine
 * where a system call costs microseconds, their count per op is the part of an op's cost that no
 * code above the socket can make cheaper, only fewer. Without /proc (not Linux) it measures nothing
 * and the report leaves the figures out.
 */
final class CpuMeter {

    /** /proc counts in clock ticks of USER_HZ, which is 100 on every Linux architecture the JDK runs on. */
    private static final double NANOS_PER_TICK = 1e9 / 100;

    private final Map<String, Long> pids;

    /** @param pids process name (server, redis) -> pid; the generator is always measured as "generator" */
    CpuMeter(Map<String, Long> pids) {
        this.pids = new LinkedHashMap<>(pids);
        this.pids.put("generator", ProcessHandle.current().pid());
    }

    static CpuMeter of(Options options) {
        Map<String, Long> pids = new LinkedHashMap<>();
        String servers = options.get("server-pids", "");
        int node = 0;
        for (String pid : servers.split(",")) {
            if (!pid.isBlank()) {
                pids.put(node++ == 0 ? "server" : "server" + node, Long.parseLong(pid.trim()));
            }
        }
        String redis = options.get("redis-pid", "");
        if (!redis.isBlank()) {
            pids.put("redis", Long.parseLong(redis.trim()));
        }
        return new CpuMeter(pids);
    }

    /**
     * What every process and the machine have used so far; null when /proc cannot be read. A process
     * that cannot be read (a server on another host) is left out, the others are still measured.
     */
    Sample sample() {
        Map<String, Double> nanos = new LinkedHashMap<>();
        Map<String, long[]> syscalls = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, Long> process : pids.entrySet()) {
                try {
                    nanos.put(process.getKey(), processTicks(process.getValue()) * NANOS_PER_TICK);
                } catch (IOException | RuntimeException gone) {
                    // not on this host, or exited: no figure for it
                }
                try {
                    syscalls.put(process.getKey(), readsAndWrites(process.getValue()));
                } catch (IOException | RuntimeException unreadable) {
                    // another user's process, or exited: no count for it
                }
            }
            long[] machine = machineTicks();
            return new Sample(nanos, syscalls, machine[0] * NANOS_PER_TICK, machine[1] * NANOS_PER_TICK);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Puts {@code cpu_<process>_us_per_op} for every process, {@code cpu_us_per_op} (their sum) and
     * {@code machine_busy_pct} (all cores, all processes: near 100 % means the cores were the limit),
     * and {@code syscalls_<process>_reads_per_op} / {@code _writes_per_op}.
     */
    static void put(Map<String, Object> metrics, Sample start, Sample end, long ops) {
        if (start == null || end == null || ops == 0) {
            return;
        }
        double total = 0;
        for (Map.Entry<String, Double> process : end.processNanos().entrySet()) {
            Double before = start.processNanos().get(process.getKey());
            if (before == null) {
                continue;
            }
            double perOp = (process.getValue() - before) / ops / 1000;
            metrics.put("cpu_" + process.getKey() + "_us_per_op", perOp);
            total += perOp;
        }
        metrics.put("cpu_us_per_op", total);
        putSyscalls(metrics, start, end, ops, null);
        double busy = end.machineBusyNanos() - start.machineBusyNanos();
        double all = busy + end.machineIdleNanos() - start.machineIdleNanos();
        if (all > 0) {
            metrics.put("machine_busy_pct", 100 * busy / all);
        }
    }

    /**
     * Read and write system calls per op of each process whose counts could be read at both ends.
     *
     * @param only the one process to count, or null for all
     */
    static void putSyscalls(Map<String, Object> metrics, Sample start, Sample end, long ops, String only) {
        for (Map.Entry<String, long[]> process : end.processSyscalls().entrySet()) {
            long[] before = start.processSyscalls().get(process.getKey());
            if (before != null && (only == null || only.equals(process.getKey()))) {
                metrics.put(
                        "syscalls_" + process.getKey() + "_reads_per_op",
                        (process.getValue()[0] - before[0]) / (double) ops);
                metrics.put(
                        "syscalls_" + process.getKey() + "_writes_per_op",
                        (process.getValue()[1] - before[1]) / (double) ops);
            }
        }
    }

    /** {read, write} system calls so far: {@code syscr} and {@code syscw} of /proc/PID/io (all threads). */
    private static long[] readsAndWrites(long pid) throws IOException {
        long reads = -1;
        long writes = -1;
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "io"), StandardCharsets.US_ASCII)) {
            if (line.startsWith("syscr:")) {
                reads = Long.parseLong(line.substring(6).trim());
            } else if (line.startsWith("syscw:")) {
                writes = Long.parseLong(line.substring(6).trim());
            }
        }
        if (reads < 0 || writes < 0) {
            throw new IOException("no syscr/syscw in /proc/" + pid + "/io");
        }
        return new long[] {reads, writes};
    }

    /** utime + stime, fields 14 and 15 of /proc/PID/stat (the name in field 2 may hold spaces: count after it). */
    private static long processTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** {busy, idle} ticks of all cores: the first line of /proc/stat (idle = idle + iowait). */
    private static long[] machineTicks() throws IOException {
        String first = Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.US_ASCII)
                .get(0);
        String[] fields = first.trim().split("\\s+");
        long busy = 0;
        long idle = 0;
        for (int i = 1; i < fields.length && i <= 8; i++) {
            long ticks = Long.parseLong(fields[i]);
            if (i == 4 || i == 5) {
                idle += ticks;
            } else {
                busy += ticks;
            }
        }
        return new long[] {busy, idle};
    }

    /** Sleeps until {@code nanoTime} reaches {@code at}, then samples. */
    Sample sampleAt(long at) {
        long wait = at - System.nanoTime();
        if (wait > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return sample();
    }

    record Sample(
            Map<String, Double> processNanos,
            Map<String, long[]> processSyscalls,
            double machineBusyNanos,
            double machineIdleNanos) {}
}
