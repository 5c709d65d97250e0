package io.editlock.events;

import io.editlock.lock.Lock;
import io.editlock.lock.LockChange;
import io.editlock.lock.ResourceType;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the stream of lock changes tells: locks held by type (every node sees every change, so each
 * node's figure is the whole deployment's, for the configurators that changed since it started) and
 * how long a change took from the script that published it to this node (pub/sub lag).
 */
@ApplicationScoped
public class RelayMetrics {

    private final Map<Long, Map<ResourceType, Integer>> heldByConfigurator = new ConcurrentHashMap<>();
    private final Timer lag;

    public RelayMetrics(MeterRegistry registry) {
        for (ResourceType type : ResourceType.values()) {
            Gauge.builder("editlock.locks.held", this, metrics -> metrics.held(type))
                    .description("Locks held, by type (as seen in lock changes since this node started)")
                    .tag("type", type.wireName())
                    .register(registry);
        }
        this.lag = Timer.builder("editlock.pubsub.lag")
                .description("From the script that published a lock change to its arrival at this node")
                .publishPercentileHistogram()
                .register(registry);
    }

    void received(LockChange change) {
        if (change.publishedAtMillis() > 0) {
            lag.record(Duration.ofMillis(Math.max(0, System.currentTimeMillis() - change.publishedAtMillis())));
        }
        if (change.locks().isEmpty()) {
            heldByConfigurator.remove(change.configuratorId());
            return;
        }
        Map<ResourceType, Integer> counts = new EnumMap<>(ResourceType.class);
        for (Lock lock : change.locks()) {
            counts.merge(lock.resource().type(), 1, Integer::sum);
        }
        heldByConfigurator.put(change.configuratorId(), counts);
    }

    private double held(ResourceType type) {
        return heldByConfigurator.values().stream()
                .mapToInt(counts -> counts.getOrDefault(type, 0))
                .sum();
    }
}
