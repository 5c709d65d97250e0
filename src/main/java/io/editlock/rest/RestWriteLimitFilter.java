package io.editlock.rest;

import io.editlock.auth.Identity;
import io.editlock.limits.SharedRateLimit;
import io.editlock.limits.UserRates;
import io.editlock.limits.Verdict;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.session.UserActivity;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * REST writes (POST, PUT, PATCH, DELETE) count as the user's activity ({@link UserActivity}), and
 * those beyond the user's REST write rate ({@link UserRates}) are refused with 429 and {@code Retry-After: 1}, before any other work, so that one user cannot keep the
 * shared Redis busy. Runs after the security checks (a write without a valid token is 401 and not
 * counted) and before the lock guard.
 */
public class RestWriteLimitFilter {

    private static final Set<String> WRITES = Set.of("POST", "PATCH", "PUT", "DELETE");

    private final SharedRateLimit limit;
    private final UserActivity activity;
    private final JsonWebToken token;

    public RestWriteLimitFilter(UserRates rates, UserActivity activity, JsonWebToken token) {
        this.limit = rates.restWrites();
        this.activity = activity;
        this.token = token;
    }

    @ServerRequestFilter(priority = Priorities.USER - 100)
    public Uni<Response> limitWrites(ContainerRequestContext request, ResourceInfo resource) {
        if (!limits(request.getMethod(), resource.getResourceClass(), resource.getResourceMethod())) {
            return Uni.createFrom().nullItem();
        }
        String userId = Identity.of(token).userId();
        // A write is the user at work (docs/protocol.md §6), whatever comes of it.
        activity.wroteOverRest(userId);
        return limit.allow(userId)
                .onFailure()
                .transform(LockStoreUnavailableException::of)
                .map(verdict -> verdict == Verdict.ALLOWED
                        ? null
                        : Response.fromResponse(RestErrors.message(
                                        RestErrors.TOO_MANY_REQUESTS,
                                        "More than " + limit.perSecond()
                                                + " writes a second; nothing was written. Try again in a second."))
                                .header("Retry-After", "1")
                                .build());
    }

    /**
     * Whether a request with this HTTP method to this route counts: writes that need a token only (the
     * demo login has none to count by). {@link WriteDocs} documents the 429 on exactly these routes.
     */
    static boolean limits(String httpMethod, Class<?> resourceClass, Method resourceMethod) {
        return WRITES.contains(httpMethod)
                && (resourceClass.isAnnotationPresent(Authenticated.class)
                        || resourceMethod.isAnnotationPresent(RolesAllowed.class));
    }
}
