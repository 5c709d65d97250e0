package io.editlock.auth;

import io.editlock.config.EditlockConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * Which browser pages may open the socket (cross-site WebSocket hijacking, docs/protocol.md §3, §11): no
 * Origin (not a browser) is fine; the server's own origin (its Host header) and the configured
 * allow-list are fine; {@code null} and everything else are refused.
 */
@ApplicationScoped
public class OriginPolicy {

    private final List<String> allowed;

    public OriginPolicy(EditlockConfig config) {
        this.allowed = config.websocket().allowedOrigins().orElse(List.of()).stream()
                .map(origin -> origin.trim().toLowerCase(Locale.ROOT).replaceAll("/+$", ""))
                .toList();
    }

    public boolean permits(String origin, String host) {
        if (origin == null) {
            return true;
        }
        String normalized = origin.trim().toLowerCase(Locale.ROOT);
        if (normalized.equals("null") || normalized.isEmpty()) {
            return false;
        }
        if (allowed.contains(normalized.replaceAll("/+$", ""))) {
            return true;
        }
        try {
            URI uri = new URI(normalized);
            return host != null
                    && uri.getRawAuthority() != null
                    && uri.getRawAuthority().equals(host.trim().toLowerCase(Locale.ROOT));
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
