package io.editlock.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.Entity;
import io.editlock.catalog.Entry;
import io.editlock.lock.GuardType;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code /api/dependencies/{id}}: a dependency, guarded by the dependencies page of its item (docs/protocol.md §8). */
@Path("/api/dependencies")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "dependencies")
@APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
public class DependencyResource {

    private static final String TOKEN = "Fencing token of your lock on the dependencies page of the entry's item, or of your configurator lock";

    private final EntryRoutes routes;

    public DependencyResource(EntryRoutes routes) {
        this.routes = routes;
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "Read a dependency")
    @APIResponse(responseCode = "200", description = "The entry", content = @Content(schema = @Schema(implementation = Entry.Dependency.class)))
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Uni<Entry> get(@PathParam("id") String id) {
        return routes.get(Entity.DEPENDENCY, id);
    }

    @PATCH
    @Path("/{id}")
    @RequireLock(value = GuardType.PAGE, idOf = Entity.DEPENDENCY)
    @Operation(summary = "Change some fields of a dependency (guard: the dependencies page of its item)")
    @Parameter(name = LockGuardFilter.LOCK_TOKEN, in = ParameterIn.HEADER, description = TOKEN)
    @RequestBody(required = true, description = "At least one field",
            content = @Content(schema = @Schema(implementation = ApiDocs.DependencyBody.class)))
    @APIResponse(responseCode = "200", description = "Changed", content = @Content(schema = @Schema(implementation = Entry.Dependency.class)))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "423", ref = ApiDocs.LOCKED)
    @APIResponse(responseCode = "412", ref = ApiDocs.PRECONDITION_FAILED)
    public Uni<Entry> update(@PathParam("id") String id, JsonNode body) {
        return routes.update(Entity.DEPENDENCY, body);
    }

    @DELETE
    @Path("/{id}")
    @RequireLock(value = GuardType.PAGE, idOf = Entity.DEPENDENCY)
    @Operation(summary = "Delete a dependency (guard: the dependencies page of its item)")
    @Parameter(name = LockGuardFilter.LOCK_TOKEN, in = ParameterIn.HEADER, description = TOKEN)
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "423", ref = ApiDocs.LOCKED)
    @APIResponse(responseCode = "412", ref = ApiDocs.PRECONDITION_FAILED)
    public Uni<Void> delete(@PathParam("id") String id) {
        return routes.delete(Entity.DEPENDENCY);
    }
}
