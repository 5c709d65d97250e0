package io.editlock.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Redis ceiling: {@code redis-benchmark -n N -c C --csv EVALSHA <sha> 0} against the same Redis,
 * with a small script (loaded first with SCRIPT LOAD). What one script run per request costs with
 * nothing else in the way.
 */
final class RedisCeiling {

    static final String SCRIPT = "return 1";

    private RedisCeiling() {}

    static Map<String, Object> run(String host, int port, int requests, int clients, Map<String, String> notes)
            throws IOException {
        String sha;
        try (Resp redis = new Resp(host, port)) {
            sha = (String) redis.call("SCRIPT", "LOAD", SCRIPT);
        }
        List<String> command = new ArrayList<>(List.of(
                "redis-benchmark",
                "-h",
                host,
                "-p",
                Integer.toString(port),
                "-n",
                Integer.toString(requests),
                "-c",
                Integer.toString(clients),
                "--csv",
                "EVALSHA",
                sha,
                "0"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IllegalStateException("redis-benchmark failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        // "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
        String[] header = null;
        String[] row = null;
        for (String line : output.split("\r?\n")) {
            String[] cells = line.replace("\"", "").split(",");
            if (cells.length > 1 && cells[0].equals("test")) {
                header = cells;
            } else if (cells.length > 1 && cells[0].startsWith("EVALSHA")) {
                row = cells;
            }
        }
        if (row == null) {
            throw new IllegalStateException("no EVALSHA line in the output of redis-benchmark: " + output);
        }
        Map<String, Object> metrics = Results.metrics();
        metrics.put("ops_per_s", Double.parseDouble(row[1]));
        if (header != null) {
            for (int i = 2; i < header.length && i < row.length; i++) {
                if (header[i].equals("p50_latency_ms")) {
                    metrics.put("p50_ms", Double.parseDouble(row[i]));
                } else if (header[i].equals("p99_latency_ms")) {
                    metrics.put("p99_ms", Double.parseDouble(row[i]));
                }
            }
        }
        notes.put(
                "command",
                "redis-benchmark -n " + requests + " -c " + clients + " EVALSHA <sha of '" + SCRIPT + "'> 0");
        return metrics;
    }
}
