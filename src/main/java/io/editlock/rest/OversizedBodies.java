package io.editlock.rest;

import io.editlock.protocol.WireFormat;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A body whose announced length is over {@code quarkus.http.limits.max-body-size} is refused before
 * anything reads it, also before the token is looked at: 413, with the JSON message every other
 * error carries (docs/rest-api.md). Quarkus would refuse it as well, with a bare 413; a body sent
 * without a length is still cut off there, by Quarkus, once it grows past the limit.
 */
@ApplicationScoped
public class OversizedBodies {

    private static final int PAYLOAD_TOO_LARGE = 413;
    private static final String MESSAGE = WireFormat.object()
            .put("message", "the body is larger than the server accepts")
            .toString();

    private final long maxBytes;

    public OversizedBodies(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize) {
        this.maxBytes = maxBodySize.asLongValue();
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::refuseOversized);
    }

    private void refuseOversized(RoutingContext context) {
        String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && announcedOver(length)) {
            context.response()
                    .setStatusCode(PAYLOAD_TOO_LARGE)
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .putHeader(HttpHeaders.CONNECTION, "close")
                    .end(MESSAGE);
            return;
        }
        context.next();
    }

    private boolean announcedOver(String length) {
        try {
            return Long.parseLong(length.trim()) > maxBytes;
        } catch (NumberFormatException e) {
            return false; // not a length: left to the HTTP layer, which refuses it
        }
    }
}
