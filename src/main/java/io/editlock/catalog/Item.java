package io.editlock.catalog;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An item of a configurator's tree; {@code parentItemId} is null at the top. */
// parentItemId is in every answer too, but a new item at the top may leave it out.
@Schema(requiredProperties = {"id", "configuratorId", "name"})
public record Item(
        long id,
        long configuratorId,

        @Schema(minLength = 1, maxLength = EntryField.MAX_NAME)
        String name,

        @Schema(nullable = true) Long parentItemId) {}
