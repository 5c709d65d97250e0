package io.editlock.catalog;

/** Where an item or entry is: its configurator, and its item (null for a variable or a configurator). */
public record Location(long configuratorId, Long itemId) {}
