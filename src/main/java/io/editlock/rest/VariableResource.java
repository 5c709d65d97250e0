package io.editlock.rest;

import io.editlock.catalog.Entity;
import io.editlock.catalog.Entry;
import io.editlock.catalog.EntryStore;
import io.editlock.lock.GuardType;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code /api/variables/{id}}: a variable, guarded by the variables page of its configurator (docs/protocol.md §8). */
@Path("/api/variables")
@Tag(name = "variables", description = "Variables, guarded by the variables page of their configurator")
@Authenticated
@APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
@RequireLock(value = GuardType.VARIABLES, idOf = Entity.VARIABLE)
public class VariableResource extends EntryResource<Entry.Variable> {

    public VariableResource(EntryStore entries, GuardContext guards) {
        super(entries, guards, Entity.VARIABLE);
    }
}
