package io.editlock.lock;

import java.util.Arrays;
import java.util.Optional;

/** The sub-pages every item has. */
public enum Page {
    FILTERS("filters"),
    DEPENDENCIES("dependencies"),
    ATTRIBUTES("attributes");

    private final String wireName;

    Page(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Case-sensitive, as the contract says. */
    public static Optional<Page> fromWire(String name) {
        return Arrays.stream(values())
                .filter(page -> page.wireName.equals(name))
                .findFirst();
    }
}
