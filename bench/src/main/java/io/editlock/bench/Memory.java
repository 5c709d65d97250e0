package io.editlock.bench;

import io.vertx.core.Promise;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memory of idle sockets: the server's heap after a full GC ({@code jcmd <pid> GC.run}, then
 * {@code GC.heap_info}) and its resident set ({@code VmRSS} of /proc/<pid>/status), before and after
 * opening N authenticated sockets that each watch a configurator; the difference per socket.
 */
final class Memory {

    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    private Memory() {}

    record Fixture(List<Users.User> users, long[] configurators) {
        static Fixture create(Api api, int sockets, int configurators) {
            List<Users.User> users = Users.login(api, "idle", sockets);
            List<Long> ids = Parallel.map(
                    configurators, 16, i -> api.createConfigurator(users.get(0).token(), "idle-" + i));
            return new Fixture(users, ids.stream().mapToLong(Long::longValue).toArray());
        }
    }

    static Map<String, Object> run(
            Net net,
            URI target,
            long serverPid,
            Fixture fixture,
            long settleMillis,
            int connectConcurrency,
            Map<String, String> notes) {
        Counters counters = new Counters();
        long heapBefore = heapAfterFullGc(serverPid);
        long rssBefore = rss(serverPid);
        List<Sock> socks = net.connect(List.of(target), "/locking", fixture.users(), 0, connectConcurrency, counters);
        Parallel.map(socks.size(), connectConcurrency, i -> {
            Sock sock = socks.get(i);
            long configurator = fixture.configurators()[i % fixture.configurators().length];
            Promise<Void> watched = Promise.promise();
            sock.onContext(() ->
                    sock.send("watch", "{\"configuratorId\":" + configurator + "}", (frame, sent, received) -> {
                        if (!"lock-updated".equals(frame.event())) {
                            counters.error("watch:" + frame.event());
                        }
                        watched.complete();
                    }));
            return watched.future();
        });
        Parallel.sleep(settleMillis);
        long heapAfter = heapAfterFullGc(serverPid);
        long rssAfter = rss(serverPid);
        int open = socks.size();
        net.closeAll(socks);

        Map<String, Object> metrics = Results.metrics();
        metrics.put("heap_per_socket_kib", open == 0 ? 0.0 : (heapAfter - heapBefore) / 1024.0 / open);
        metrics.put("rss_per_socket_kib", open == 0 ? 0.0 : (rssAfter - rssBefore) / 1024.0 / open);
        metrics.put("heap_before_mib", heapBefore / 1048576.0);
        metrics.put("heap_after_mib", heapAfter / 1048576.0);
        metrics.put("rss_before_mib", rssBefore / 1048576.0);
        metrics.put("rss_after_mib", rssAfter / 1048576.0);
        metrics.put("sockets", (long) open);
        metrics.put("errors", counters.errors.sum());
        metrics.put("closed", counters.unexpectedCloses.sum());
        notes.put("errors", counters.errorCodes());
        return metrics;
    }

    /** Bytes of heap in use right after a full GC (G1: the "garbage-first heap ... used" line). */
    static long heapAfterFullGc(long pid) {
        String info = jcmd(pid, "GC.run", "GC.heap_info");
        long usedKib = 0;
        for (String line : info.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.startsWith("Metaspace") || trimmed.startsWith("class space")) {
                continue;
            }
            Matcher used = USED.matcher(line);
            if (used.find()
                    && (trimmed.contains("heap") || trimmed.contains("Gen") || trimmed.contains("generation"))) {
                usedKib += Long.parseLong(used.group(1));
            }
        }
        if (usedKib == 0) {
            throw new IllegalStateException("no heap figure in jcmd GC.heap_info:\n" + info);
        }
        return usedKib * 1024;
    }

    static long rss(long pid) {
        try {
            for (String line :
                    Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/" + pid + "/status", e);
        }
        throw new IllegalStateException("no VmRSS for " + pid);
    }

    /** One attach for several commands: {@code jcmd <pid> -f <file>}, a command per line, run in order. */
    private static String jcmd(long pid, String... commands) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        String executable = Files.isExecutable(jcmd) ? jcmd.toString() : "jcmd";
        String command = String.join(" + ", commands);
        try {
            Path file = Files.createTempFile("editlock-bench-jcmd-", ".txt");
            Files.writeString(file, String.join("\n", commands) + "\n");
            Process process = new ProcessBuilder(executable, Long.toString(pid), "-f", file.toString())
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = process.waitFor();
            Files.deleteIfExists(file);
            if (status != 0) {
                throw new IllegalStateException("jcmd " + pid + " " + command + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run jcmd", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
