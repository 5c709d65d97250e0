package io.editlock.support;

import static org.awaitility.Awaitility.await;

import io.editlock.redis.embedded.RedisProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A test profile whose Redis is a redis-server of its own, which a test can freeze where it stands
 * (SIGSTOP) and thaw (SIGCONT): what is sent to it meanwhile waits, and runs once it is thawed, after
 * the server gave up on it (its command timeout here is one second).
 */
public class FrozenRedis implements QuarkusTestProfile {

    private static RedisProcess redis;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.redis.timeout", "1s");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(OwnRedis.class));
    }

    /** Starts and stops the profile's redis-server. */
    public static class OwnRedis implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            redis = TestRedis.start();
            return Map.of("quarkus.redis.hosts", redis.url());
        }

        @Override
        public void stop() {
            if (redis != null) {
                redis.close();
            }
        }
    }

    /** Stops redis-server where it is: what is sent to it now waits, and runs once it is thawed. */
    public static void freeze() {
        TestRedis.signal(redis, "STOP");
    }

    public static void thaw() {
        TestRedis.signal(redis, "CONT");
    }

    /**
     * Freezes Redis right as the next run of the script goes out, first running {@code meanwhile} (which may
     * set the next hook).
     *
     * @return turns true once Redis is frozen there
     */
    public static AtomicBoolean freezeAtNext(ScriptHooks hooks, String scriptName, Runnable meanwhile) {
        AtomicBoolean frozen = new AtomicBoolean();
        hooks.beforeNext(scriptName, () -> {
            meanwhile.run();
            frozen.set(true);
            return frozen();
        });
        return frozen;
    }

    /**
     * An outage of {@code length} from the moment {@code frozen} turns true, then Redis is thawed: the
     * fault's length, not a wait for an outcome.
     */
    public static void outage(AtomicBoolean frozen, Duration length) {
        await("Redis is frozen").atMost(Duration.ofSeconds(10)).untilTrue(frozen);
        try {
            Thread.sleep(length.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            thaw();
        }
    }

    /** Thaws Redis right as the next run of the script goes out: the store is back for that step. */
    public static void thawAtNext(ScriptHooks hooks, String scriptName) {
        hooks.beforeNext(
                scriptName,
                () -> Uni.createFrom().item(() -> {
                    thaw();
                    return null;
                }));
    }

    /** Freezes Redis as a step of the server's own road (see {@link ScriptHooks}). */
    public static Uni<Void> frozen() {
        return Uni.createFrom().item(() -> {
            freeze();
            return null;
        });
    }
}
