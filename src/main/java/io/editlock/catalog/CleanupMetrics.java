package io.editlock.catalog;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * The cleanups after deletes that keep failing, for {@code /q/metrics}: while one does, the ids of
 * what was deleted stay in the global indexes (answered 404, but kept), and a deleted item's entries
 * stay in their hashes. Every node sweeps, so every node reports what its own last sweep could not
 * settle.
 */
@Startup
@ApplicationScoped
public class CleanupMetrics {

    private final MeterRegistry meters;
    /** Held here as well: a gauge holds the object it reads only weakly. */
    private final DeletedConfigurators configurators;

    private final DeletedItems items;
    private final List<Gauge> gauges;

    public CleanupMetrics(MeterRegistry meters, DeletedConfigurators configurators, DeletedItems items) {
        this.meters = meters;
        this.configurators = configurators;
        this.items = items;
        String description = "Deletes whose cleanup this node's last sweep tried and could not finish";
        this.gauges = List.of(
                Gauge.builder("editlock.delete.cleanups.failing", this.configurators, DeletedConfigurators::unsettled)
                        .tag("kind", "configurator")
                        .description(description)
                        .register(meters),
                Gauge.builder("editlock.delete.cleanups.failing", this.items, DeletedItems::unsettled)
                        .tag("kind", "item")
                        .description(description)
                        .register(meters));
    }

    /** Else the next start in this JVM (a live reload) would report this stopped node's figures. */
    @PreDestroy
    void unregister() {
        gauges.forEach(meters::remove);
    }
}
