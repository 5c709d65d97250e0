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

/** {@code /api/variables/{id}}: a variable, guarded by the variables page of its configurator (docs/protocol.md §8). */
@Path("/api/variables")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "variables")
@APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
public class VariableResource {

    private static final String TOKEN = "Fencing token of your variables or configurator lock";

    private final EntryRoutes routes;

    public VariableResource(EntryRoutes routes) {
        this.routes = routes;
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "Read a variable")
    @APIResponse(responseCode = "200", description = "The entry", content = @Content(schema = @Schema(implementation = Entry.Variable.class)))
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Uni<Entry> get(@PathParam("id") String id) {
        return routes.get(Entity.VARIABLE, id);
    }

    @PATCH
    @Path("/{id}")
    @RequireLock(value = GuardType.VARIABLES, idOf = Entity.VARIABLE)
    @Operation(summary = "Change some fields of a variable (guard: the variables page of its configurator)")
    @Parameter(name = LockGuardFilter.LOCK_TOKEN, in = ParameterIn.HEADER, description = TOKEN)
    @RequestBody(required = true, description = "At least one field",
            content = @Content(schema = @Schema(implementation = ApiDocs.VariableBody.class)))
    @APIResponse(responseCode = "200", description = "Changed", content = @Content(schema = @Schema(implementation = Entry.Variable.class)))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "423", ref = ApiDocs.LOCKED)
    @APIResponse(responseCode = "412", ref = ApiDocs.PRECONDITION_FAILED)
    public Uni<Entry> update(@PathParam("id") String id, JsonNode body) {
        return routes.update(Entity.VARIABLE, body);
    }

    @DELETE
    @Path("/{id}")
    @RequireLock(value = GuardType.VARIABLES, idOf = Entity.VARIABLE)
    @Operation(summary = "Delete a variable (guard: the variables page of its configurator)")
    @Parameter(name = LockGuardFilter.LOCK_TOKEN, in = ParameterIn.HEADER, description = TOKEN)
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "423", ref = ApiDocs.LOCKED)
    @APIResponse(responseCode = "412", ref = ApiDocs.PRECONDITION_FAILED)
    public Uni<Void> delete(@PathParam("id") String id) {
        return routes.delete(Entity.VARIABLE);
    }
}
