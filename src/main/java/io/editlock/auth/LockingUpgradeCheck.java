package io.editlock.auth;

import io.editlock.limits.FrameSender;
import io.editlock.limits.SocketQuota;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.quarkus.websockets.next.UserData;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Guards the {@code /locking} upgrade: first the Origin (403), then the token (401), then the user's
 * sockets on this node (429, {@link SocketQuota}). The token comes from the
 * {@code Authorization: Bearer} header or, for browsers, {@code ?access_token=}. The verified
 * identity goes into the connection's user data; nothing a client sends later can change it.
 */
@ApplicationScoped
public class LockingUpgradeCheck implements HttpUpgradeCheck {

    public static final UserData.TypedKey<Identity> IDENTITY = new UserData.TypedKey<>("editlock.identity");
    private static final String BEARER = "bearer ";

    private final JWTParser parser;
    private final OriginPolicy origins;
    private final SocketQuota quota;

    public LockingUpgradeCheck(JWTParser parser, OriginPolicy origins, SocketQuota quota) {
        this.parser = parser;
        this.origins = origins;
        this.quota = quota;
    }

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        HttpServerRequest request = context.httpRequest();
        if (!origins.permits(request.getHeader("Origin"), request.getHeader("Host"))) {
            return CheckResult.rejectUpgrade(403);
        }
        String token = tokenOf(request);
        if (token == null) {
            return CheckResult.rejectUpgrade(401);
        }
        try {
            Identity identity = Identity.of(parser.parse(token));
            if (!quota.admitsAnother(identity.userId())) {
                return CheckResult.rejectUpgrade(429);
            }
            context.userData().put(IDENTITY, identity);
            context.userData().put(FrameSender.TRANSPORT, request.connection());
            return CheckResult.permitUpgrade();
        } catch (ParseException e) {
            return CheckResult.rejectUpgrade(401);
        }
    }

    private static String tokenOf(HttpServerRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            String token = header.substring(BEARER.length()).trim();
            return token.isEmpty() ? null : token;
        }
        String query = request.getParam("access_token");
        return query == null || query.isBlank() ? null : query;
    }
}
