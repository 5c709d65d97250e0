package io.editlock.catalog;

import java.time.Instant;

public record Configurator(long id, String name, Instant createdAt) {
}
