package io.editlock.catalog;

/**
 * The item an entry names in one of its fields (a dependency's {@code targetItemId}), which must be an
 * item of the same configurator when it is written anew.
 */
public record ItemReference(String field, long itemId) {}
