package io.editlock.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.catalog.Entity;
import io.editlock.catalog.Entry;
import io.editlock.catalog.EntryField;
import io.editlock.catalog.Item;
import io.editlock.lock.GuardType;
import io.editlock.lock.Page;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code /api/items/{id}}: an item, and new entries on its pages (docs/protocol.md §8). */
@Path("/api/items")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "items")
@APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
public class ItemResource {

    private final ConfiguratorStore store;
    private final EntryCreates entries;
    private final GuardContext guards;

    public ItemResource(ConfiguratorStore store, EntryCreates entries, GuardContext guards) {
        this.store = store;
        this.entries = entries;
        this.guards = guards;
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "An item (without its pages; GET its configurator for the whole tree)")
    @APIResponse(
            responseCode = "200",
            description = "The item",
            content = @Content(schema = @Schema(implementation = Item.class)))
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Uni<Item> get(@PathParam("id") String id) {
        return store.item(ApiNumbers.pathId(Entity.ITEM, id));
    }

    @PATCH
    @Path("/{id}")
    @RequireLock(value = GuardType.ITEM, idOf = Entity.ITEM)
    @Operation(summary = "Rename an item (guard: item — refused only while another user holds the configurator)")
    @RequestBody(
            required = true,
            description = "Only the name: an item does not move (its parentItemId, sent back, is ignored)",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            requiredProperties = "name",
                                            properties = {
                                                @SchemaProperty(
                                                        name = "name",
                                                        type = SchemaType.STRING,
                                                        minLength = 1,
                                                        maxLength = EntryField.MAX_NAME),
                                                @SchemaProperty(
                                                        name = "parentItemId",
                                                        type = SchemaType.INTEGER,
                                                        format = "int64",
                                                        nullable = true,
                                                        readOnly = true)
                                            })))
    @APIResponse(
            responseCode = "200",
            description = "Renamed",
            content = @Content(schema = @Schema(implementation = Item.class)))
    public Uni<Item> rename(@PathParam("id") String id, JsonNode body) {
        String name = Bodies.itemName(body);
        return store.renameItem(guards.require().guard(), name);
    }

    @DELETE
    @Path("/{id}")
    @RequireLock(value = GuardType.ITEM_FULL, idOf = Entity.ITEM)
    @Operation(
            summary = "Delete an item with its sub-tree (guard: item-full — the item and every item below it); "
                    + "your page locks there are released with reason deleted")
    @APIResponse(responseCode = "204", description = "Deleted")
    public Uni<Void> delete(@PathParam("id") String id) {
        return store.deleteItem(guards.require().guard());
    }

    @POST
    @Path("/{id}/filters")
    @RequireLock(value = GuardType.PAGE, idOf = Entity.ITEM, page = Page.FILTERS)
    @Operation(summary = "Add a filter to the item (guard: its filters page)")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Entry.Filter.class)))
    @APIResponse(
            responseCode = "201",
            description = "Created; Location names it",
            headers = @Header(name = "Location"),
            content = @Content(schema = @Schema(implementation = Entry.Filter.class)))
    @Parameter(name = IdempotentCreates.HEADER, in = ParameterIn.HEADER)
    public Uni<Response> addFilter(@PathParam("id") String id, JsonNode body) {
        return entries.add(Entity.FILTER, body);
    }

    @POST
    @Path("/{id}/dependencies")
    @RequireLock(value = GuardType.PAGE, idOf = Entity.ITEM, page = Page.DEPENDENCIES)
    @Operation(
            summary = "Add a dependency to the item (guard: its dependencies page); targetItemId must be an item "
                    + "of the same configurator")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Entry.Dependency.class)))
    @APIResponse(
            responseCode = "201",
            description = "Created; Location names it",
            headers = @Header(name = "Location"),
            content = @Content(schema = @Schema(implementation = Entry.Dependency.class)))
    @Parameter(name = IdempotentCreates.HEADER, in = ParameterIn.HEADER)
    public Uni<Response> addDependency(@PathParam("id") String id, JsonNode body) {
        return entries.add(Entity.DEPENDENCY, body);
    }

    @POST
    @Path("/{id}/attribute-values")
    @RequireLock(value = GuardType.PAGE, idOf = Entity.ITEM, page = Page.ATTRIBUTES)
    @Operation(summary = "Add an attribute value to the item (guard: its attributes page)")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Entry.AttributeValue.class)))
    @APIResponse(
            responseCode = "201",
            description = "Created; Location names it",
            headers = @Header(name = "Location"),
            content = @Content(schema = @Schema(implementation = Entry.AttributeValue.class)))
    @Parameter(name = IdempotentCreates.HEADER, in = ParameterIn.HEADER)
    public Uni<Response> addAttributeValue(@PathParam("id") String id, JsonNode body) {
        return entries.add(Entity.ATTRIBUTE_VALUE, body);
    }
}
