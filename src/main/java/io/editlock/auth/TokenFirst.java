package io.editlock.auth;

import io.editlock.config.EditlockConfig;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * 401 comes first on the REST API (docs/protocol.md §3, §8): a request without a usable bearer token
 * hears nothing else, not which methods a path has (405), which bodies or answers it takes (415, 406),
 * nor whether it exists (404). The resources' own {@code @Authenticated} checks run only after a route
 * matched, so this asks for the caller before matching. The demo sign-in, where tokens come from, and
 * a browser's CORS preflight, which carries no credentials, are left to their routes.
 *
 * <p>With demo login off, the sign-in's path does not exist for any method: left to its route, a GET
 * would be answered 405 naming POST, telling a prober that the route is there.
 *
 * <p>A refusal here comes before any route matched, so it has no template for the request metrics:
 * {@link BoundedRequestTags} counts it under a fixed {@code uri}, not the path the caller made up.
 */
public class TokenFirst {

    private static final String API = "/api/";

    private final CurrentIdentityAssociation identity;
    private final EditlockConfig config;

    public TokenFirst(CurrentIdentityAssociation identity, EditlockConfig config) {
        this.identity = identity;
        this.config = config;
    }

    @ServerRequestFilter(preMatching = true, priority = Priorities.AUTHENTICATION)
    public Uni<Void> requireToken(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (isDemoLogin(path)) {
            if (!config.demoLogin().enabled()) {
                throw DemoLoginResource.off();
            }
            return Uni.createFrom().voidItem();
        }
        if (!path.startsWith(API) || isPreflight(request)) {
            return Uni.createFrom().voidItem();
        }
        // A token that does not verify fails here with the exception a route's own check would raise.
        return identity.getDeferredIdentity()
                .invoke(caller -> {
                    if (caller.isAnonymous()) {
                        throw new UnauthorizedException();
                    }
                })
                .replaceWithVoid();
    }

    /** The demo sign-in's path, as the router matches it: with trailing slashes too. */
    private static boolean isDemoLogin(String path) {
        return DemoLoginResource.PATH.equals(path.replaceFirst("/+$", ""));
    }

    /** A browser's CORS preflight, which carries no credentials by design; any other OPTIONS needs a token. */
    private static boolean isPreflight(ContainerRequestContext request) {
        return request.getMethod().equals(HttpMethod.OPTIONS)
                && request.getHeaderString("Origin") != null
                && request.getHeaderString("Access-Control-Request-Method") != null;
    }
}
