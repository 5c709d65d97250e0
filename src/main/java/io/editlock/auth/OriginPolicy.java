package io.editlock.auth;

import io.editlock.config.EditlockConfig;
import io.editlock.config.StartRefusal;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which browser pages may open the socket (cross-site WebSocket hijacking, docs/protocol.md §3, §11): no
 * Origin (not a browser) is fine; the server's own origin and the configured allow-list are fine;
 * {@code null} and everything else are refused. Origins compare by scheme, host and port.
 */
@Startup // an allow-list entry that is not an origin stops the start, rather than refusing every page it meant
@ApplicationScoped
public class OriginPolicy {

    private static final String SETTING = "editlock.websocket.allowed-origins";

    private final Set<WebOrigin> allowed;

    @Inject
    public OriginPolicy(EditlockConfig config) {
        this(config.websocket().allowedOrigins().orElse(List.of()));
    }

    OriginPolicy(List<String> allowedOrigins) {
        this.allowed = allowedOrigins.stream()
                .map(entry -> WebOrigin.parse(entry)
                        .orElseThrow(() -> StartRefusal.told(new IllegalArgumentException(
                                SETTING + ": '" + entry + "' is not an origin (scheme://host or scheme://host:port)"))))
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * @param origin the request's {@code Origin}, null when it has none
     * @param host   the request's {@code Host}
     * @param scheme the scheme the request reached the server with, {@code http} or {@code https}
     */
    public boolean permits(String origin, String host, String scheme) {
        if (origin == null) {
            return true;
        }
        Optional<WebOrigin> page = WebOrigin.parse(origin);
        return page.isPresent() && (allowed.contains(page.get()) || isOwn(page.get(), host, scheme));
    }

    /**
     * The server serves only web pages, of the site its Host names. Over TLS, a plain {@code http} page
     * is not one of them. A request that arrives without TLS may still come from an {@code https} page
     * through a proxy that ended TLS: the server learns of that only from the proxy's forwarded
     * headers, which it reads only when configured to trust them (then {@code scheme} says https).
     */
    private static boolean isOwn(WebOrigin page, String host, String scheme) {
        return page.isWeb() && (!"https".equals(scheme) || page.scheme().equals("https")) && page.isAt(host);
    }
}
