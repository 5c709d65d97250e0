package io.editlock.rest;

import io.editlock.catalog.Entity;
import io.editlock.catalog.Entry;
import io.editlock.catalog.EntryStore;
import io.editlock.lock.GuardType;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code /api/dependencies/{id}}: a dependency, guarded by the dependencies page of its item (docs/protocol.md §8). */
@Path("/api/dependencies")
@Tag(name = "dependencies", description = "Dependencies, each guarded by the dependencies page of its item")
@Authenticated
@APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
@RequireLock(value = GuardType.PAGE, idOf = Entity.DEPENDENCY)
public class DependencyResource extends EntryResource<Entry.Dependency> {

    public DependencyResource(EntryStore entries, GuardContext guards) {
        super(entries, guards, Entity.DEPENDENCY);
    }
}
