package io.editlock.events;

import io.editlock.lock.Lock;
import io.editlock.lock.LockChange;
import io.editlock.lock.ResourceType;
import io.editlock.redis.StoreClock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the stream of lock changes tells: locks held by type (every node sees every change, so each
 * node's figure is the whole deployment's, for the configurators that changed since it started; the
 * relay reads those again when it may have missed changes) and how long a change took from the script
 * that published it to this node (pub/sub lag).
 */
@Startup
@ApplicationScoped
public class RelayMetrics {

    private final Map<Long, Map<ResourceType, Integer>> heldByConfigurator = new ConcurrentHashMap<>();
    private final MeterRegistry registry;
    private final List<Gauge> gauges = new ArrayList<>();
    private final Timer lag;
    private final StoreClock clock;

    /** Registered at start: a node that has seen no lock change yet shows 0 held, not no figure at all. */
    public RelayMetrics(MeterRegistry registry, StoreClock clock) {
        this.registry = registry;
        this.clock = clock;
        for (ResourceType type : ResourceType.values()) {
            gauges.add(Gauge.builder("editlock.locks.held", this, metrics -> metrics.held(type))
                    .description("Locks held, by type (as seen in lock changes since this node started)")
                    .tag("type", type.wireName())
                    .register(registry));
        }
        this.lag = Timer.builder("editlock.pubsub.lag")
                .description("From the script that published a lock change to its arrival at this node")
                .publishPercentileHistogram()
                .register(registry);
    }

    /**
     * The root registry outlives the application (a live reload in dev mode starts a new one in the
     * same JVM) and keeps a gauge bound to the object it was registered with: without this, the next
     * start would find these gauges still reading this, stopped, instance.
     */
    @PreDestroy
    void unregister() {
        gauges.forEach(registry::remove);
    }

    void received(LockChange change) {
        if (change.publishedAtMillis() > 0) {
            // The script stamped the change on Redis's clock: so is its arrival measured, whatever this node's says.
            lag.record(Duration.ofMillis(Math.max(0, clock.nowMillis() - change.publishedAtMillis())));
        }
        counted(change.configuratorId(), change.locks());
    }

    /** The configurator's locks as they stand now, from a change or from a read of the store. */
    void counted(long configuratorId, List<Lock> locks) {
        if (locks.isEmpty()) {
            heldByConfigurator.remove(configuratorId);
            return;
        }
        Map<ResourceType, Integer> counts = new EnumMap<>(ResourceType.class);
        for (Lock lock : locks) {
            counts.merge(lock.resource().type(), 1, Integer::sum);
        }
        heldByConfigurator.put(configuratorId, counts);
    }

    /** The configurators whose locks the figures count: those to read again when changes may have been missed. */
    Set<Long> countedConfigurators() {
        return Set.copyOf(heldByConfigurator.keySet());
    }

    private double held(ResourceType type) {
        return heldByConfigurator.values().stream()
                .mapToInt(counts -> counts.getOrDefault(type, 0))
                .sum();
    }
}
