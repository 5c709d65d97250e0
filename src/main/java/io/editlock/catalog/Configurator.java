package io.editlock.catalog;

import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A configurator without its content. {@code createdBy} is the user id of whoever created it
 * (it may delete it, besides an admin); null for one the server made itself.
 */
// Every field is in every answer; a body must hold the name only, since the others are read-only.
@Schema(requiredProperties = {"id", "name", "createdAt", "createdBy"})
public record Configurator(
        long id,

        @Schema(minLength = 1, maxLength = EntryField.MAX_NAME)
        String name,

        Instant createdAt,
        @Schema(nullable = true) String createdBy) {}
