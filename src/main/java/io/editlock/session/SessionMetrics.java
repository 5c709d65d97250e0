package io.editlock.session;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

/** Sockets connected to this node, for {@code /q/metrics}. */
@Startup
@ApplicationScoped
public class SessionMetrics {

    public SessionMetrics(MeterRegistry meters, SessionRegistry registry) {
        Gauge.builder("editlock.sockets.connected", registry, SessionRegistry::size)
                .description("WebSockets open on this node").register(meters);
    }
}
