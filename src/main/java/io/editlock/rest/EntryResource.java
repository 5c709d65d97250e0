package io.editlock.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.Entity;
import io.editlock.catalog.Entry;
import io.editlock.catalog.EntryStore;
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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * An entry by its id (docs/protocol.md §8): read, change some fields, delete. One subclass per kind of
 * entry names its path and tag and, with {@link RequireLock} on the class, the guard of its writes.
 *
 * <p>{@code @Authenticated} is on both classes: the security check reads the class that declares the
 * method (this one), the OpenAPI document and {@link RestWriteLimitFilter} the route's class.
 *
 * @param <E> the entry's type, as the routes answer it and as its body is documented
 */
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public abstract class EntryResource<E extends Entry> {

    private final EntryStore entries;
    private final GuardContext guards;
    private final Entity entity;

    protected EntryResource(EntryStore entries, GuardContext guards, Entity entity) {
        this.entries = entries;
        this.guards = guards;
        this.entity = entity;
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "Read the entry")
    @APIResponse(responseCode = "200", description = "The entry")
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Uni<E> get(@PathParam("id") String id) {
        return typed(entries.find(entity, ApiNumbers.pathId(entity, id)));
    }

    @PATCH
    @Path("/{id}")
    @Operation(summary = "Change some fields of the entry (guard: its page)")
    @RequestBody(
            required = true,
            description = "At least one field",
            content = @Content(schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "200", description = "Changed")
    public Uni<E> update(@PathParam("id") String id, JsonNode body) {
        var changes = Bodies.changes(entity, body);
        GuardContext.Guarded guarded = guards.require();
        return typed(entries.update(guarded.guard(), entity, guarded.id(), changes));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete the entry (guard: its page)")
    @APIResponse(responseCode = "204", description = "Deleted")
    public Uni<Void> delete(@PathParam("id") String id) {
        GuardContext.Guarded guarded = guards.require();
        return entries.delete(guarded.guard(), entity, guarded.id());
    }

    /** The store answers an entry of the entity it was asked for. */
    @SuppressWarnings("unchecked")
    private Uni<E> typed(Uni<Entry> entry) {
        return (Uni<E>) (Uni<?>) entry;
    }
}
