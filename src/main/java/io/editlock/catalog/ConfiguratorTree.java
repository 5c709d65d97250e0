package io.editlock.catalog;

import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A configurator with its whole content: the item tree with every page's entries, and its variables. */
@Schema(requiredProperties = {"id", "name", "createdAt", "createdBy", "items", "variables"})
public record ConfiguratorTree(
        long id,
        String name,
        Instant createdAt,
        @Schema(nullable = true) String createdBy,
        List<Node> items,
        List<Entry.Variable> variables) {

    /** An item with its pages and the items below it; every list is ordered by id. */
    @Schema(
            requiredProperties = {"id", "name", "parentItemId", "filters", "dependencies", "attributeValues", "children"
            })
    public record Node(
            long id,
            String name,
            @Schema(nullable = true) Long parentItemId,
            List<Entry.Filter> filters,
            List<Entry.Dependency> dependencies,
            List<Entry.AttributeValue> attributeValues,
            List<Node> children) {}
}
