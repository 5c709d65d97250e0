package io.editlock.lock;

import java.util.Arrays;
import java.util.Optional;

/** The three kinds of lockable pages (docs/protocol.md §1). */
public enum ResourceType {
    CONFIGURATOR("configurator"),
    VARIABLES("variables"),
    ITEM_SUBRESOURCE("item-subresource");

    private final String wireName;

    ResourceType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<ResourceType> fromWire(String name) {
        return Arrays.stream(values())
                .filter(type -> type.wireName.equals(name))
                .findFirst();
    }
}
