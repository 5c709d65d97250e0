package io.editlock.socketio;

import io.editlock.auth.OriginPolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * Whether an Engine.IO handshake opens a session (docs/socketio.md): its Origin and token of a sane size,
 * and a place among the sessions nobody connected on yet. A refused one is answered here and counted in
 * {@code editlock_socketio_handshake_refusals_total{reason}}, before anything is created for it.
 */
@ApplicationScoped
@Startup // its meters are there from the start, at 0, before the first refusal they count
class HandshakeGate {

    /** An address as long as this names one host; a forwarded one may be any text its proxy passed on. */
    private static final int MAX_ADDRESS_LENGTH = 64;

    /** What an admitted handshake's session keeps, and its place among the unconnected sessions. */
    record Admitted(Handshake handshake, UnconnectedSessions.Place place) {}

    private final OriginPolicy origins;
    private final UnconnectedSessions unconnected;
    private final Map<HandshakeRefusal, Counter> refusals = new EnumMap<>(HandshakeRefusal.class);

    HandshakeGate(OriginPolicy origins, UnconnectedSessions unconnected, MeterRegistry meters) {
        this.origins = origins;
        this.unconnected = unconnected;
        for (HandshakeRefusal refusal : HandshakeRefusal.values()) {
            refusals.put(
                    refusal,
                    Counter.builder("editlock.socketio.handshake.refusals")
                            .tag("reason", refusal.tag())
                            .description("Engine.IO handshakes refused before a session was opened")
                            .register(meters));
        }
    }

    /** @return empty when the handshake is refused; it has been answered then */
    Optional<Admitted> admit(HttpServerRequest request) {
        try {
            Handshake handshake = Handshake.of(request, origins);
            return Optional.of(new Admitted(handshake, unconnected.admit(addressOf(request))));
        } catch (HandshakeRefusal.Refused refused) {
            refusals.get(refused.refusal()).increment();
            refused.refusal().answer(request.response());
            return Optional.empty();
        }
    }

    /**
     * The client's address as Quarkus gives it: the peer's, or the one a proxy forwards when the node is
     * set to trust it ({@code quarkus.http.proxy.*}, docs/operations.md). Behind a proxy it does not trust,
     * every client shares the proxy's.
     */
    private static String addressOf(HttpServerRequest request) {
        SocketAddress peer = request.remoteAddress();
        String host = peer == null || peer.host() == null ? "" : peer.host();
        return host.length() > MAX_ADDRESS_LENGTH ? host.substring(0, MAX_ADDRESS_LENGTH) : host;
    }
}
