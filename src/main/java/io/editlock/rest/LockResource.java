package io.editlock.rest;

import io.editlock.auth.Identity;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.catalog.InvalidInputException;
import io.editlock.catalog.UnknownIdException;
import io.editlock.lock.LockAudit;
import io.editlock.lock.LockService;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code DELETE /api/locks/{canonical}}: an admin breaks a lock (reason admin, docs/protocol.md §8). */
@Path("/api/locks")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "locks")
public class LockResource {

    private final LockService locks;
    private final ConfiguratorStore store;

    private final LockAudit audit;
    private final SecurityIdentity caller;

    public LockResource(LockService locks, ConfiguratorStore store, LockAudit audit, SecurityIdentity caller) {
        this.locks = locks;
        this.store = store;
        this.audit = audit;
        this.caller = caller;
    }

    @DELETE
    @Path("/{canonical}")
    @RolesAllowed(Identity.ADMIN)
    @Operation(
            summary = "Break a lock (admin only): configurator:12, configurator:12:variables, item:5:filters. "
                    + "Watchers get lock-released with reason admin, the holder lock-lost")
    @APIResponse(responseCode = "204", description = "Released")
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(
            responseCode = "404",
            description = "Nobody holds that lock (or its configurator or item does not exist)",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = ApiDocs.Message.class)))
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Uni<Void> breakLock(@PathParam("canonical") String canonical) {
        Resource named = Resource.parseCanonical(canonical)
                .orElseThrow(() -> new InvalidInputException("'" + canonical
                        + "' is not a lockable resource (configurator:12, configurator:12:variables, item:5:filters)"));
        return resolve(named)
                .flatMap(resource -> locks.locks(resource.configuratorId())
                        .map(current -> current.stream()
                                .filter(lock -> lock.resource().field().equals(resource.field()))
                                .findFirst()))
                .flatMap(held -> held.isEmpty()
                        ? Uni.createFrom().failure(nobodyHolds(canonical))
                        : locks.releaseGrant(held.get(), ReleaseReason.ADMIN, ""))
                .invoke(result -> {
                    if (result instanceof ReleaseResult.Released released) {
                        audit.brokenByAdmin(released.released(), Identity.userIdOf(caller.getPrincipal()));
                    } else {
                        throw nobodyHolds(canonical);
                    }
                })
                .replaceWithVoid();
    }

    private Uni<Resource> resolve(Resource named) {
        if (named.configuratorId() != null) {
            return Uni.createFrom().item(named);
        }
        return store.configuratorOfItem(named.itemId())
                .map(found -> found.map(named::inConfigurator).orElseThrow(() -> nobodyHolds(named.canonical())));
    }

    private static UnknownIdException nobodyHolds(String canonical) {
        return new UnknownIdException("Nobody holds " + canonical);
    }
}
