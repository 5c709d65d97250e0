package io.editlock.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.auth.Identity;
import io.editlock.catalog.Configurator;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.catalog.ConfiguratorTree;
import io.editlock.catalog.Entity;
import io.editlock.catalog.Entry;
import io.editlock.catalog.Item;
import io.editlock.catalog.UnknownIdException;
import io.editlock.config.EditlockConfig;
import io.editlock.lock.GuardType;
import io.editlock.lock.LockService;
import io.editlock.protocol.WireFormat;
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
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code /api/configurators}: configurators, their items and variables, and lock discovery (docs/protocol.md §8). */
@Path("/api/configurators")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "configurators")
@APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
public class ConfiguratorResource {

    private final ConfiguratorStore store;
    private final EntryCreates entries;
    private final IdempotentCreates idempotent;
    private final LockService locks;
    private final GuardContext guards;
    private final JsonWebToken token;
    private final int pageSize;

    public ConfiguratorResource(
            ConfiguratorStore store,
            EntryCreates entries,
            IdempotentCreates idempotent,
            LockService locks,
            GuardContext guards,
            JsonWebToken token,
            EditlockConfig config) {
        this.store = store;
        this.entries = entries;
        this.idempotent = idempotent;
        this.locks = locks;
        this.guards = guards;
        this.token = token;
        this.pageSize = config.limits().rest().listPageSize();
    }

    @GET
    @Operation(
            summary = "The configurators (without content), by id, one page at a time; "
                    + "a Link header (rel=next) names the next page when more follow")
    // Read from the query itself (ApiNumbers.once): the framework's reading drops empty values and matches
    // names in any case, which would let a parameter given twice, or misspelled, pass as one.
    @Parameter(
            name = "after",
            in = ParameterIn.QUERY,
            description = "Only configurators with a larger id (default 0)",
            schema = @Schema(type = SchemaType.STRING, pattern = "^[0-9]*$"))
    @Parameter(
            name = "limit",
            in = ParameterIn.QUERY,
            description = "Configurators in the page, 1 to editlock.limits.rest.list-page-size (the default, 100)",
            schema = @Schema(type = SchemaType.STRING, pattern = "^[0-9]*$"))
    @APIResponse(
            responseCode = "200",
            description = "The configurators",
            headers = @Header(name = "Link"),
            content = @Content(schema = @Schema(implementation = Configurator.class, type = SchemaType.ARRAY)))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    public Uni<Response> list(@Context UriInfo uri) {
        String query = uri.getRequestUri().getRawQuery();
        long afterId = ApiNumbers.after(ApiNumbers.once(query, "after"));
        int size = ApiNumbers.limit(ApiNumbers.once(query, "limit"), pageSize);
        return store.configurators(afterId, size).map(page -> {
            Response.ResponseBuilder response = Response.ok(page.configurators());
            page.nextAfter()
                    .ifPresent(next -> response.header(
                            "Link", "</api/configurators?after=" + next + "&limit=" + size + ">; rel=\"next\""));
            return response.build();
        });
    }

    @POST
    @Operation(summary = "Create a configurator (unguarded)")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Configurator.class)))
    @APIResponse(
            responseCode = "201",
            description = "Created; Location names it",
            headers = @Header(name = "Location"),
            content = @Content(schema = @Schema(implementation = Configurator.class)))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @Parameter(name = IdempotentCreates.HEADER, in = ParameterIn.HEADER)
    public Uni<Response> create(JsonNode body) {
        String name = Bodies.name(body);
        String createdBy = Identity.of(token).userId();
        return idempotent.create(
                Entity.CONFIGURATOR,
                body,
                idempotency -> store.createConfigurator(name, createdBy, idempotency)
                        .map(created -> Created.at("/api/configurators/" + created.id())
                                .entity(created)
                                .build()));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "The whole configurator: its item tree with every page's entries, and its variables")
    @APIResponse(
            responseCode = "200",
            description = "The configurator",
            content = @Content(schema = @Schema(implementation = ConfiguratorTree.class)))
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Uni<ConfiguratorTree> get(@PathParam("id") String id) {
        return store.tree(ApiNumbers.pathId(Entity.CONFIGURATOR, id));
    }

    @PATCH
    @Path("/{id}")
    @RequireLock(value = GuardType.CONFIGURATOR, idOf = Entity.CONFIGURATOR)
    @Operation(summary = "Rename a configurator (guard: configurator)")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Configurator.class)))
    @APIResponse(
            responseCode = "200",
            description = "Renamed",
            content = @Content(schema = @Schema(implementation = Configurator.class)))
    public Uni<Configurator> rename(@PathParam("id") String id, JsonNode body) {
        String name = Bodies.configuratorName(body);
        return store.renameConfigurator(guards.require().guard(), name);
    }

    @DELETE
    @Path("/{id}")
    @RequireLock(value = GuardType.CONFIGURATOR, idOf = Entity.CONFIGURATOR)
    @Operation(
            summary =
                    "Delete a configurator with everything in it (guard: configurator; only its creator or an admin); "
                            + "your locks in it are released with reason deleted")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(
            responseCode = "403",
            description = "Neither its creator (createdBy) nor an admin",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = ApiDocs.Message.class)))
    public Uni<Void> delete(@PathParam("id") String id) {
        return store.deleteConfigurator(
                guards.require().guard(), Identity.of(token).isAdmin());
    }

    @POST
    @Path("/{id}/items")
    @RequireLock(value = GuardType.CONFIGURATOR, idOf = Entity.CONFIGURATOR)
    @Operation(summary = "Add an item, at the top or under parentItemId (guard: configurator)")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Item.class)))
    @APIResponse(
            responseCode = "201",
            description = "Created; Location names it",
            headers = @Header(name = "Location"),
            content = @Content(schema = @Schema(implementation = Item.class)))
    @Parameter(name = IdempotentCreates.HEADER, in = ParameterIn.HEADER)
    public Uni<Response> addItem(@PathParam("id") String id, JsonNode body) {
        Bodies.NewItem item = Bodies.newItem(body);
        return idempotent.createUnder(
                guards,
                Entity.ITEM,
                body,
                (guard, idempotency) -> store.addItem(guard, item.name(), item.parentItemId(), idempotency)
                        .map(created -> Created.at("/api/items/" + created.id())
                                .entity(created)
                                .build()));
    }

    @POST
    @Path("/{id}/variables")
    @RequireLock(value = GuardType.VARIABLES, idOf = Entity.CONFIGURATOR)
    @Operation(summary = "Add a variable (guard: variables)")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Entry.Variable.class)))
    @APIResponse(
            responseCode = "201",
            description = "Created; Location names it",
            headers = @Header(name = "Location"),
            content = @Content(schema = @Schema(implementation = Entry.Variable.class)))
    @Parameter(name = IdempotentCreates.HEADER, in = ParameterIn.HEADER)
    public Uni<Response> addVariable(@PathParam("id") String id, JsonNode body) {
        return entries.add(Entity.VARIABLE, body);
    }

    @GET
    @Path("/{id}/locks")
    @Operation(summary = "Lock discovery: the live locks of a configurator")
    @APIResponse(
            responseCode = "200",
            description = "The locks (no tokens)",
            content = @Content(schema = @Schema(implementation = ApiDocs.LockView.class, type = SchemaType.ARRAY)))
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Uni<JsonNode> locks(@PathParam("id") String id) {
        long configuratorId = ApiNumbers.pathId(Entity.CONFIGURATOR, id);
        return store.configuratorExists(configuratorId).flatMap(exists -> {
            if (!exists) {
                throw UnknownIdException.of(Entity.CONFIGURATOR, id);
            }
            return locks.locks(configuratorId).map(current -> WireFormat.locks(current, false));
        });
    }
}
