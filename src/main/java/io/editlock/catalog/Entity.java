package io.editlock.catalog;

import io.editlock.lock.Page;
import java.util.List;

/**
 * What a configurator is made of, as {@code content-changed} names it (docs/protocol.md §8). The last four
 * are entries: small records on one page (an item's filters, dependencies, attribute values; the
 * configurator's variables), each with the fields listed here.
 */
public enum Entity {
    CONFIGURATOR("configurator", "configurators", null, List.of()),
    ITEM("item", "items", null, List.of()),
    FILTER("filter", "filters", Page.FILTERS, List.of(EntryField.text("expression"))),
    DEPENDENCY(
            "dependency",
            "dependencies",
            Page.DEPENDENCIES,
            List.of(EntryField.itemId("targetItemId"), EntryField.text("effect"))),
    ATTRIBUTE_VALUE(
            "attribute-value",
            "attribute-values",
            Page.ATTRIBUTES,
            List.of(EntryField.name("name"), EntryField.value("value"))),
    VARIABLE("variable", "variables", null, List.of(EntryField.name("name"), EntryField.text("formula")));

    private final String wireName;
    private final String collection;
    private final Page page;
    private final List<EntryField> fields;

    Entity(String wireName, String collection, Page page, List<EntryField> fields) {
        this.wireName = wireName;
        this.collection = collection;
        this.page = page;
        this.fields = fields;
    }

    /** {@code configurator}, {@code item}, {@code filter}, {@code dependency}, {@code attribute-value}, {@code variable}. */
    public String wireName() {
        return wireName;
    }

    /** The plural, as in the URL ({@code /api/attribute-values}) and the key of its hash. */
    public String collection() {
        return collection;
    }

    /** The item page an entry lives on; null for a variable (the configurator's variables page) and non-entries. */
    public Page page() {
        return page;
    }

    /** The fields of an entry, all required at creation; empty for non-entries. */
    public List<EntryField> fields() {
        return fields;
    }

    public boolean isEntry() {
        return !fields.isEmpty();
    }

    /** Whether an entry of this kind sits on an item's page (not on the configurator's variables). */
    public boolean onItemPage() {
        return page != null;
    }
}
