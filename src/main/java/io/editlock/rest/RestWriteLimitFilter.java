package io.editlock.rest;

import io.editlock.auth.Identity;
import io.editlock.config.EditlockConfig;
import io.editlock.limits.SharedRateLimit;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.redis.LockKeys;
import io.editlock.redis.ScriptExecutor;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.quarkus.security.Authenticated;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Per-user limit on REST writes (POST, PATCH, DELETE), shared by every node, so that one user cannot
 * keep the shared Redis busy: more than {@code editlock.limits.rest.writes-per-second} in one second
 * are refused with 429 and {@code Retry-After: 1}, before any other work. Runs after the security
 * checks (a write without a valid token is 401, not counted) and before the lock guard.
 */
@Singleton
public class RestWriteLimitFilter {

    private static final Set<String> WRITES = Set.of("POST", "PATCH", "PUT", "DELETE");

    private final SharedRateLimit limit;
    private final int perSecond;
    private final JsonWebToken token;

    public RestWriteLimitFilter(ScriptExecutor scripts, LockKeys keys, EditlockConfig config, JsonWebToken token) {
        this.perSecond = config.limits().rest().writesPerSecond();
        this.limit = new SharedRateLimit(scripts, keys::restWriteRate, perSecond);
        this.token = token;
    }

    @ServerRequestFilter(priority = Priorities.USER - 100)
    public Uni<Response> limitWrites(ContainerRequestContext request, ResourceInfo resource) {
        if (!WRITES.contains(request.getMethod()) || !authenticated(resource)) {
            return Uni.createFrom().nullItem();
        }
        return limit.allow(Identity.of(token).userId())
                .onFailure().transform(LockStoreUnavailableException::of)
                .map(allowed -> allowed ? null : Response.fromResponse(RestErrors.message(RestErrors.TOO_MANY_REQUESTS,
                        "More than " + perSecond + " writes a second; nothing was written. Try again in a second."))
                        .header("Retry-After", "1").build());
    }

    /** Only writes that need a token count (the demo login has none to count by). */
    private static boolean authenticated(ResourceInfo resource) {
        return resource.getResourceClass().isAnnotationPresent(Authenticated.class)
                || resource.getResourceMethod().isAnnotationPresent(RolesAllowed.class);
    }

    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void forgetPastWindows() {
        limit.forgetPastWindows();
    }
}
