package io.editlock.session;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Sockets connected to this node, for {@code /q/metrics}. */
@Startup
@ApplicationScoped
public class SessionMetrics {

    /** The values of {@link ClientConnection#transport()}. */
    private static final List<String> TRANSPORTS = List.of("websocket", "socketio");

    public SessionMetrics(MeterRegistry meters, SessionRegistry registry) {
        for (String transport : TRANSPORTS) {
            Gauge.builder("editlock.sockets.connected", registry, sessions -> sessions.count(transport))
                    .tag("transport", transport)
                    .description("Client sockets open on this node: /locking WebSockets and Socket.IO sockets")
                    .register(meters);
        }
    }
}
