package io.editlock.catalog;

/** One entry of a page: a filter, dependency or attribute value of an item, or a variable. */
public sealed interface Entry permits Entry.Filter, Entry.Dependency, Entry.AttributeValue, Entry.Variable {

    long id();

    long configuratorId();

    record Filter(long id, long configuratorId, long itemId, String expression) implements Entry {}

    record Dependency(long id, long configuratorId, long itemId, long targetItemId, String effect) implements Entry {}

    record AttributeValue(long id, long configuratorId, long itemId, String name, String value) implements Entry {}

    record Variable(long id, long configuratorId, String name, String formula) implements Entry {}
}
