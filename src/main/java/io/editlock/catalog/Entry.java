package io.editlock.catalog;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One entry of a page: a filter, dependency or attribute value of an item, or a variable.
 *
 * <p>The {@code @Schema}s restate for the API's readers what {@link Entity#fields()} holds a body to: all of
 * the entry's own fields when it is created, each within its limits. The ids are required as every answer
 * holds them; a body may leave them out, as they are read-only.
 */
public sealed interface Entry permits Entry.Filter, Entry.Dependency, Entry.AttributeValue, Entry.Variable {

    long id();

    long configuratorId();

    @Schema(requiredProperties = {"id", "configuratorId", "itemId", "expression"})
    record Filter(
            long id,
            long configuratorId,
            long itemId,

            @Schema(minLength = 1, maxLength = EntryField.MAX_TEXT)
            String expression)
            implements Entry {}

    @Schema(requiredProperties = {"id", "configuratorId", "itemId", "targetItemId", "effect"})
    record Dependency(
            long id,
            long configuratorId,
            long itemId,
            long targetItemId,

            @Schema(minLength = 1, maxLength = EntryField.MAX_TEXT)
            String effect)
            implements Entry {}

    @Schema(requiredProperties = {"id", "configuratorId", "itemId", "name", "value"})
    record AttributeValue(
            long id,
            long configuratorId,
            long itemId,

            @Schema(minLength = 1, maxLength = EntryField.MAX_NAME)
            String name,

            @Schema(maxLength = EntryField.MAX_TEXT) String value)
            implements Entry {}

    @Schema(requiredProperties = {"id", "configuratorId", "name", "formula"})
    record Variable(
            long id,
            long configuratorId,

            @Schema(minLength = 1, maxLength = EntryField.MAX_NAME)
            String name,

            @Schema(minLength = 1, maxLength = EntryField.MAX_TEXT)
            String formula)
            implements Entry {}
}
