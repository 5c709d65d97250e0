package io.editlock.catalog;

/** One field of an entry and what it must hold. */
public record EntryField(String name, Type type) {

    /** Longest name (of an entry, item or configurator). */
    public static final int MAX_NAME = 200;
    /** Longest expression, formula, effect or value. */
    public static final int MAX_TEXT = 10_000;

    public enum Type {
        /** A non-blank string of at most {@link #MAX_NAME} characters. */
        NAME,
        /** A non-blank string of at most {@link #MAX_TEXT} characters (an expression, effect, formula). */
        TEXT,
        /** Any string of at most {@link #MAX_TEXT} characters, the empty one included. */
        VALUE,
        /** The id of an item of the same configurator (a positive integer below 2^53). */
        ITEM_ID
    }

    static EntryField name(String name) {
        return new EntryField(name, Type.NAME);
    }

    static EntryField text(String name) {
        return new EntryField(name, Type.TEXT);
    }

    static EntryField value(String name) {
        return new EntryField(name, Type.VALUE);
    }

    static EntryField itemId(String name) {
        return new EntryField(name, Type.ITEM_ID);
    }
}
