package io.editlock.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docs/operations.md, metrics: every limit's refusals are a series from the start, at 0. */
class LimitMetricsTest {

    @Test
    void everyLimitIsCountedFromTheStart() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new LimitMetrics(meters).refused(LimitMetrics.Limit.WATCHES);

        Map<String, Double> byLimit = meters.find("editlock.limit.refusals").counters().stream()
                .collect(Collectors.toMap(counter -> counter.getId().getTag("limit"), Counter::count));

        assertEquals(
                Map.of(
                        "sockets", 0.0,
                        "watches", 1.0,
                        "frames", 0.0,
                        "unsent", 0.0,
                        "rest-writes", 0.0,
                        "lock-requests", 0.0),
                byLimit);
    }
}
