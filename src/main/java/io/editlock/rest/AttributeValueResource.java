package io.editlock.rest;

import io.editlock.catalog.Entity;
import io.editlock.catalog.Entry;
import io.editlock.catalog.EntryStore;
import io.editlock.lock.GuardType;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code /api/attribute-values/{id}}: an attribute value, guarded by the attributes page of its item (docs/protocol.md §8). */
@Path("/api/attribute-values")
@Tag(name = "attribute-values", description = "Attribute values, each guarded by the attributes page of its item")
@Authenticated
@APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
@RequireLock(value = GuardType.PAGE, idOf = Entity.ATTRIBUTE_VALUE)
public class AttributeValueResource extends EntryResource<Entry.AttributeValue> {

    public AttributeValueResource(EntryStore entries, GuardContext guards) {
        super(entries, guards, Entity.ATTRIBUTE_VALUE);
    }
}
