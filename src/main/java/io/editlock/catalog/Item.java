package io.editlock.catalog;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An item of a configurator's tree; {@code parentItemId} is null at the top. */
public record Item(
        long id,
        long configuratorId,
        String name,
        @Schema(nullable = true) Long parentItemId) {}
