package io.editlock.limits;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code editlock_limit_refusals_total{limit}} for {@code /q/metrics}: how often each limit refused
 * something on this node. A steady count names a client that misbehaves or a limit set too low.
 */
@ApplicationScoped
@Startup // its meters are there from the start, at 0, before the first event they count
public class LimitMetrics {

    /** The {@code limit} tag values. */
    public enum Limit {
        SOCKETS("sockets"),
        WATCHES("watches"),
        FRAMES("frames"),
        UNSENT("unsent"),
        REST_WRITES("rest-writes"),
        LOCK_REQUESTS("lock-requests");

        private final String tag;

        Limit(String tag) {
            this.tag = tag;
        }
    }

    private final MeterRegistry meters;
    private final Map<Limit, Counter> counters = new ConcurrentHashMap<>();

    public LimitMetrics(MeterRegistry meters) {
        this.meters = meters;
        // Every limit from the start, at 0, so that an alert on its rate has a series to read.
        for (Limit limit : Limit.values()) {
            counter(limit);
        }
    }

    public void refused(Limit limit) {
        counter(limit).increment();
    }

    private Counter counter(Limit limit) {
        return counters.computeIfAbsent(
                limit,
                key -> Counter.builder("editlock.limit.refusals")
                        .tag("limit", key.tag)
                        .description("Requests, upgrades and sockets refused or closed by a limit")
                        .register(meters));
    }
}
