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
