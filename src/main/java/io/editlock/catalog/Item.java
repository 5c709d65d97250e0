package io.editlock.catalog;

/** An item of a configurator's tree; {@code parentItemId} is null at the top. */
public record Item(long id, long configuratorId, String name, Long parentItemId) {}
