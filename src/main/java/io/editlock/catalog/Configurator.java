package io.editlock.catalog;

import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A configurator without its content. {@code createdBy} is the user id of whoever created it
 * (it may delete it, besides an admin); null for one the server made itself.
 */
public record Configurator(
        long id,
        String name,
        Instant createdAt,
        @Schema(nullable = true) String createdBy) {}
