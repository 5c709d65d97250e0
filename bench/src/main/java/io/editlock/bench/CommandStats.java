package io.editlock.bench;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Redis commands counted by the server itself: {@code CONFIG RESETSTAT}, then the work, then
 * {@code INFO commandstats}. Counts include the commands a script runs inside Redis (and the
 * EVALSHA that ran it), so they measure Redis work, not only round trips.
 */
final class CommandStats {

    /** The measuring commands themselves, and the handshake of a connection a pool may open meanwhile. */
    private static final Set<String> NOT_COUNTED =
            Set.of("config", "info", "hello", "client", "select", "auth", "ping", "command");

    private CommandStats() {}

    static void reset(Resp redis) throws IOException {
        redis.call("CONFIG", "RESETSTAT");
    }

    /** command -> calls since the last reset, without the measuring commands. */
    static Map<String, Long> read(Resp redis) throws IOException {
        String info = (String) redis.call("INFO", "commandstats");
        Map<String, Long> calls = new TreeMap<>();
        for (String line : info.split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String command = line.substring("cmdstat_".length(), line.indexOf(':'));
            if (NOT_COUNTED.contains(command.split("\\|")[0])) {
                continue;
            }
            for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                if (field.startsWith("calls=")) {
                    calls.put(command, Long.parseLong(field.substring("calls=".length())));
                }
            }
        }
        return calls;
    }

    /**
     * Read events Redis processed since the last reset ({@code total_reads_processed}), less the one of
     * this call itself: each is a batch of commands a client sent and Redis read at once, so on a
     * quiet server it counts round trips (a pipeline read whole is one).
     */
    static long readEvents(Resp redis) throws IOException {
        String info = (String) redis.call("INFO", "stats");
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("total_reads_processed:")) {
                return Long.parseLong(line.substring("total_reads_processed:".length())
                                .trim())
                        - 1;
            }
        }
        throw new IOException("INFO stats has no total_reads_processed (Redis 6.0 or newer has)");
    }

    static long total(Map<String, Long> calls) {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    static long scripts(Map<String, Long> calls) {
        return calls.entrySet().stream()
                .filter(e -> e.getKey().startsWith("eval") || e.getKey().startsWith("fcall"))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }
}
