package io.editlock.session;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/** Sockets connected to this node, for {@code /q/metrics}. */
@Startup
@ApplicationScoped
public class SessionMetrics {

    /** The values of {@link ClientConnection#transport()}. */
    private static final List<String> TRANSPORTS = List.of("websocket", "socketio");

    private final MeterRegistry meters;
    /** Held here as well: a gauge holds the object it reads only weakly. */
    private final SessionRegistry registry;

    private final List<Gauge> gauges = new ArrayList<>();

    public SessionMetrics(MeterRegistry meters, SessionRegistry registry) {
        this.meters = meters;
        this.registry = registry;
        for (String transport : TRANSPORTS) {
            gauges.add(Gauge.builder("editlock.sockets.connected", this.registry, sessions -> sessions.count(transport))
                    .tag("transport", transport)
                    .description("Client sockets open on this node: /locking WebSockets and Socket.IO sockets")
                    .register(meters));
        }
    }

    /** Else the next start in this JVM (a live reload) would count this stopped node's sockets: see RelayMetrics. */
    @PreDestroy
    void unregister() {
        gauges.forEach(meters::remove);
    }
}
