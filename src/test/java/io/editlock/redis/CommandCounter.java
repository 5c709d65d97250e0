package io.editlock.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.vertx.mutiny.redis.client.Command;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Counts the Redis commands that one step costs: CONFIG RESETSTAT, the step, INFO commandstats.
 * The counts include the commands that scripts run inside Redis, and the EVALSHA that runs them.
 */
public final class CommandCounter {

    /** The reaper and the sweeps run every second on their own: their commands would pollute the counts. */
    public static class NoBackgroundWork implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.scheduler.enabled", "false");
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The measuring commands themselves, and the handshake of a connection the pool may open meanwhile. */
    private static final Set<String> NOT_COUNTED =
            Set.of("config", "info", "hello", "client", "select", "auth", "ping", "command");

    private final ReactiveRedisDataSource redis;

    public CommandCounter(ReactiveRedisDataSource redis) {
        this.redis = redis;
    }

    /** @return command (lower case, as INFO names it) -> calls, of the commands {@code step} caused */
    public Map<String, Long> count(Runnable step) {
        redis.execute(Command.CONFIG, "RESETSTAT").await().atMost(WAIT);
        step.run();
        return calls(
                redis.execute(Command.INFO, "commandstats").await().atMost(WAIT).toString());
    }

    public static long total(Map<String, Long> calls) {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    /** {@code cmdstat_hset:calls=2,usec=...} lines -> command -> calls, without what is not counted. */
    private static Map<String, Long> calls(String commandstats) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : commandstats.split("\r?\n")) {
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
}
