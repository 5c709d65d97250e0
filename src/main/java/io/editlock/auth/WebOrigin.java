package io.editlock.auth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * An origin as browsers send it in {@code Origin}: scheme, host and port, compared as such (RFC 6454),
 * so that {@code https://app.example.com} and {@code HTTPS://App.Example.com:443/} are one origin.
 *
 * @param port the port, the scheme's default one when left out ({@code -1} for a scheme without one)
 */
record WebOrigin(String scheme, String host, int port) {

    /** Empty for anything that is not {@code scheme://host[:port]}: {@code null}, {@code file://}, a path, a user. */
    static Optional<WebOrigin> parse(String text) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        if (uri.getScheme() == null
                || uri.getHost() == null
                || uri.getRawUserInfo() != null
                || uri.getRawQuery() != null
                || uri.getRawFragment() != null
                || !uri.getRawPath().matches("/*")
                || uri.getPort() > 65535) {
            return Optional.empty();
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : defaultPort(scheme);
        return Optional.of(new WebOrigin(scheme, uri.getHost().toLowerCase(Locale.ROOT), port));
    }

    /** A page of the web: the only kind of page the server itself serves. */
    boolean isWeb() {
        return scheme.equals("http") || scheme.equals("https");
    }

    /**
     * Whether this origin is the site a request's {@code Host} names. A Host without a port names the
     * default port of this origin's scheme: the browser left it out on both.
     */
    boolean isAt(String hostHeader) {
        return hostHeader != null
                && parse(scheme + "://" + hostHeader.trim())
                        .filter(named -> named.host.equals(host) && named.port == port)
                        .isPresent();
    }

    private static int defaultPort(String scheme) {
        return switch (scheme) {
            case "http" -> 80;
            case "https" -> 443;
            default -> -1;
        };
    }
}
