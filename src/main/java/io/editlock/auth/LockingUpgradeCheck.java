package io.editlock.auth;

import io.editlock.limits.SlowClients;
import io.editlock.limits.SocketQuota;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.quarkus.websockets.next.UserData;
import io.smallrye.mutiny.Uni;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Guards the {@code /locking} upgrade: first the Origin (403), then the token (401), then the user's
 * sockets on this node (429, {@link SocketQuota}). The token comes from the
 * {@code Authorization: Bearer} header or, for browsers, the {@code bearer.<jwt>} entry of
 * {@code Sec-WebSocket-Protocol} or {@code ?access_token=}. The verified identity and the token's
 * end go into the connection's user data; nothing a client sends later can change who it is.
 */
@ApplicationScoped
public class LockingUpgradeCheck implements HttpUpgradeCheck {

    public static final UserData.TypedKey<Identity> IDENTITY = new UserData.TypedKey<>("editlock.identity");
    public static final UserData.TypedKey<Instant> TOKEN_EXPIRES_AT =
            new UserData.TypedKey<>("editlock.token-expires-at");
    /**
     * The subprotocol the server speaks and echoes. A browser cannot set headers on a WebSocket, but
     * it can offer subprotocols: {@code new WebSocket(url, ["editlock", "bearer." + jwt])} keeps the
     * token out of the URL and so out of proxies' access logs.
     */
    public static final String SUBPROTOCOL = "editlock";

    /** The headers the WebSocket handshake reads after this check (lower case). */
    private static final Set<String> HANDSHAKE_HEADERS = Set.of(
            "host",
            "upgrade",
            "connection",
            "sec-websocket-key",
            "sec-websocket-version",
            "sec-websocket-extensions",
            "sec-websocket-protocol");

    private final AccessTokens tokens;
    private final OriginPolicy origins;
    private final SocketQuota quota;

    public LockingUpgradeCheck(AccessTokens tokens, OriginPolicy origins, SocketQuota quota) {
        this.tokens = tokens;
        this.origins = origins;
        this.quota = quota;
    }

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        HttpServerRequest request = context.httpRequest();
        if (!origins.permits(request.getHeader("Origin"), request.getHeader("Host"), request.scheme())) {
            return CheckResult.rejectUpgrade(403);
        }
        Optional<AccessTokens.Verified> verified = RequestTokens.of(request).flatMap(tokens::verify);
        if (verified.isEmpty()) {
            return CheckResult.rejectUpgrade(401);
        }
        Identity identity = verified.get().identity();
        if (!quota.reserve(identity.userId())) {
            return CheckResult.rejectUpgrade(429);
        }
        context.userData().put(IDENTITY, identity);
        context.userData().put(TOKEN_EXPIRES_AT, verified.get().expiresAt());
        context.userData().put(SlowClients.TRANSPORT, request.connection());
        keepOnlyWhatTheHandshakeReads(request);
        return CheckResult.permitUpgrade();
    }

    /**
     * The upgrade request stays referenced by the socket for its whole life: its headers, the bearer
     * token above all (several hundred bytes), would cost every idle socket of a node its share. Once
     * verified, the socket lives on the identity and token end in its user data; the handshake that
     * follows reads only the headers kept here, and the subprotocol it picks is always one without the token.
     */
    private static void keepOnlyWhatTheHandshakeReads(HttpServerRequest request) {
        MultiMap headers = request.headers();
        List<String> unneeded = headers.names().stream()
                .filter(name -> !HANDSHAKE_HEADERS.contains(name.toLowerCase(Locale.ROOT)))
                .toList();
        unneeded.forEach(headers::remove);
        String protocols = headers.get(RequestTokens.SEC_WEBSOCKET_PROTOCOL);
        if (protocols != null) {
            String withoutToken = Arrays.stream(protocols.split(","))
                    .map(String::trim)
                    .filter(offered -> !offered.startsWith(RequestTokens.BEARER_SUBPROTOCOL_PREFIX))
                    .collect(Collectors.joining(","));
            if (withoutToken.isEmpty()) {
                headers.remove(RequestTokens.SEC_WEBSOCKET_PROTOCOL);
            } else {
                headers.set(RequestTokens.SEC_WEBSOCKET_PROTOCOL, withoutToken);
            }
        }
    }
}
