package io.editlock.redis.embedded;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.logging.Logger;

/**
 * The zero-setup default: when {@code quarkus.redis.hosts} is not set, start a redis-server on a
 * free loopback port and point the Redis client at it. A config source (rather than a bean) because
 * the Redis client reads its hosts before any bean of ours exists. Never for production.
 *
 * <p>Only where it is asked for: {@code editlock.embedded-redis.enabled}, on in dev mode and tests. A
 * production build without {@code quarkus.redis.hosts} stops at once instead: two nodes, each on a
 * private Redis, would grant the same page twice.
 *
 * <p>The process is started once per JVM and profile (dev-mode restarts reuse it) and stopped when the
 * JVM exits.
 *
 * <p>Never while Quarkus builds the application: the build records the runtime values it sees as the
 * packaged jar's defaults, so a Redis started then would be baked into {@code quarkus-run.jar} (and
 * be gone when it runs). Dev mode and tests build and run in one JVM: the run starts it.
 */
public class EmbeddedRedisConfigSourceFactory implements ConfigSourceFactory {

    private static final Logger LOG = Logger.getLogger(EmbeddedRedisConfigSourceFactory.class);
    static final String HOSTS = "quarkus.redis.hosts";
    static final String ENABLED = "editlock.embedded-redis.enabled";
    static final String PORT = "editlock.embedded-redis.port";
    /**
     * Survives dev-mode restarts, which load this class again in a new class loader; one per profile
     * (unless the port is fixed), so that the tests dev mode runs (continuous testing, profile test) have
     * a Redis of their own and never flush the one the demo's data is in.
     */
    static final String STARTED_URL = "io.editlock.embedded-redis-url";

    private static final int ORDINAL = 50;
    /** Free ports tried before giving up, when the port is not configured. */
    private static final int START_ATTEMPTS = 3;

    private static final String AUGMENTOR = "io.quarkus.deployment.QuarkusAugmentor";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        ConfigValue hosts = context.getValue(HOSTS);
        if (hosts != null && hosts.getValue() != null && !hosts.getValue().isBlank() || duringQuarkusBuild()) {
            return List.of();
        }
        if (!"true".equalsIgnoreCase(valueOr(context, ENABLED, "false"))) {
            throw new IllegalStateException(
                    HOSTS + " is not set. Set it (QUARKUS_REDIS_HOSTS=redis://host:6379) to the Redis "
                            + "that every node shares; or set " + ENABLED
                            + "=true to run this one node on an embedded Redis of its "
                            + "own (trying out only: nodes on separate Redis servers would grant the same page twice).");
        }
        return List.of(
                new PropertiesConfigSource(Map.of(HOSTS, startedUrl(context)), "editlock-embedded-redis", ORDINAL));
    }

    private static synchronized String startedUrl(ConfigSourceContext context) {
        String port = valueOr(context, PORT, null);
        // On a port of its own choosing, each profile has its own Redis; one fixed port is shared.
        String startedUrl = port == null ? STARTED_URL + "." + String.join(",", context.getProfiles()) : STARTED_URL;
        String running = System.getProperty(startedUrl);
        if (running != null) {
            return running;
        }
        String binary = valueOr(context, "editlock.embedded-redis.binary", RedisBinary.AUTO);
        RedisProcess redis = port == null
                ? startedOnFreePort(RedisBinary.resolve(binary))
                : new RedisProcess(RedisBinary.resolve(binary), port(port), List.of()).start();
        Runtime.getRuntime().addShutdownHook(new Thread(redis::close, "embedded-redis-stop"));
        LOG.infof(
                "quarkus.redis.hosts is not set: started an embedded Redis at %s (for trying out and tests, never for production)",
                redis.url());
        System.setProperty(startedUrl, redis.url());
        return redis.url();
    }

    /**
     * The fixed port asked for. Read here, before the configuration is validated (this source decides
     * what {@code quarkus.redis.hosts} is), so a bad one is refused here, by its property's name.
     */
    static int port(String value) {
        try {
            int port = Integer.parseInt(value.trim());
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // refused below, as a number out of range is
        }
        throw new IllegalArgumentException(PORT + " must be a port number from 1 to 65535, not '" + value + "'");
    }

    /**
     * A free port can be taken before redis-server binds it (another node or test starting at the same
     * moment): then redis-server exits at start, and another free port is tried.
     */
    private static RedisProcess startedOnFreePort(Path binary) {
        for (int attempt = 1; ; attempt++) {
            RedisProcess redis = RedisProcess.onFreePort(binary);
            try {
                return redis.start();
            } catch (RedisProcess.ExitedAtStart failed) {
                redis.close();
                if (attempt == START_ATTEMPTS) {
                    throw failed;
                }
                LOG.infof(
                        "embedded Redis did not start on port %d, trying another: %s",
                        redis.port(), failed.getMessage());
            }
        }
    }

    /** Whether this config is being read by the Quarkus build (augmentation), not by a running application. */
    static boolean duringQuarkusBuild() {
        return StackWalker.getInstance()
                .walk(frames -> frames.anyMatch(frame -> frame.getClassName().equals(AUGMENTOR)));
    }

    private static String valueOr(ConfigSourceContext context, String name, String fallback) {
        ConfigValue value = context.getValue(name);
        return value == null || value.getValue() == null ? fallback : value.getValue();
    }
}
