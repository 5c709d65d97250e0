package io.editlock.rest;

import io.editlock.auth.Identity;
import io.editlock.catalog.CatalogIndex;
import io.editlock.catalog.InvalidInputException;
import io.editlock.catalog.Location;
import io.editlock.lock.Guard;
import io.editlock.lock.GuardType;
import io.editlock.lock.Page;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import java.lang.reflect.Method;
import java.math.BigInteger;
import java.util.Optional;
import java.util.OptionalLong;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The one place where {@link RequireLock} declarations are read. Runs before the handler, after the
 * security checks (401, 403): parses {@code Lock-Token} (400 when not a positive integer, on every write), resolves
 * the path's id to its configurator and item with one index lookup, and leaves the {@link Guard} in
 * the {@link GuardContext}. The decisive check is not here: the store runs it inside the write's
 * script, so it cannot be separated from the write.
 */
public class LockGuardFilter {

    public static final String LOCK_TOKEN = "Lock-Token";

    private final CatalogIndex index;
    private final GuardContext guards;
    private final JsonWebToken token;

    public LockGuardFilter(CatalogIndex index, GuardContext guards, JsonWebToken token) {
        this.index = index;
        this.guards = guards;
        this.token = token;
    }

    @ServerRequestFilter
    public Uni<Void> resolveGuard(ContainerRequestContext request, ResourceInfo resource) {
        RequireLock declared = declared(resource.getResourceClass(), resource.getResourceMethod());
        if (declared == null) {
            if (isWrite(resource.getResourceMethod())) {
                // No lock covers this write, so no token is checked; a malformed one is still 400 (§7).
                lockToken(request.getHeaderString(LOCK_TOKEN));
            }
            return Uni.createFrom().voidItem();
        }
        OptionalLong lockToken = lockToken(request.getHeaderString(LOCK_TOKEN));
        String raw = request.getUriInfo().getPathParameters().getFirst(declared.param());
        Optional<Long> id = ApiNumbers.pathId(raw);
        if (id.isEmpty()) {
            guards.unknown(declared.idOf(), raw);
            return Uni.createFrom().voidItem();
        }
        String userId = Identity.of(token).userId();
        return index.locate(declared.idOf(), id.get())
                .invoke(where -> where.ifPresentOrElse(
                        found -> guards.resolved(guard(declared, found, userId, lockToken), id.get()),
                        () -> guards.unknown(declared.idOf(), raw)))
                .replaceWithVoid();
    }

    /**
     * The guard of a route: the method's {@link RequireLock}, else, for a write, its resource class's; null
     * when it has none.
     */
    static RequireLock declared(Class<?> resourceClass, Method method) {
        RequireLock onMethod = method.getAnnotation(RequireLock.class);
        if (onMethod != null || !isWrite(method)) {
            return onMethod;
        }
        return resourceClass.getAnnotation(RequireLock.class);
    }

    static boolean isWrite(Method method) {
        return method.isAnnotationPresent(POST.class)
                || method.isAnnotationPresent(PATCH.class)
                || method.isAnnotationPresent(PUT.class)
                || method.isAnnotationPresent(DELETE.class);
    }

    private static Guard guard(RequireLock declared, Location where, String userId, OptionalLong lockToken) {
        Page page = declared.page().length > 0
                ? declared.page()[0]
                : declared.idOf().page();
        if (declared.value() == GuardType.PAGE && page == null) {
            throw new IllegalStateException("a page guard on " + declared.idOf() + " names no page");
        }
        return new Guard(
                declared.value(),
                where.configuratorId(),
                where.itemId(),
                declared.value() == GuardType.PAGE ? page : null,
                userId,
                lockToken);
    }

    /**
     * Absent: no token. Present: a positive integer, else 400 (docs/protocol.md §7). A positive integer
     * too large for any token the store hands out is still well-formed: it names no lock, so it stands
     * as the largest long, which no grant reaches, and the write gets the 412 of any stale token.
     */
    static OptionalLong lockToken(String header) {
        if (header == null) {
            return OptionalLong.empty();
        }
        String value = header.trim();
        String digits = ApiNumbers.digitsOnly(value) ? value.replaceFirst("^0+", "") : "";
        if (digits.isEmpty()) {
            throw new InvalidInputException("Lock-Token must be a positive integer (the token of a lock you hold)");
        }
        boolean beyondLong = digits.length() > 19 || new BigInteger(digits).bitLength() >= Long.SIZE;
        return OptionalLong.of(beyondLong ? Long.MAX_VALUE : Long.parseLong(digits));
    }
}
