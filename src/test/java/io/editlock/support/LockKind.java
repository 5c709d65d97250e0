package io.editlock.support;

import java.util.Map;

/** The three lockable kinds of docs/protocol.md §1, with their events and what the server must echo. */
public enum LockKind {
    CONFIGURATOR("lock-configurator", "unlock-configurator", "configurator"),
    VARIABLES("lock-variables", "unlock-variables", "variables"),
    ITEM_PAGE("lock-item-subresource", "unlock-item-subresource", "item-subresource");

    public final String lockEvent;
    public final String unlockEvent;
    public final String type;

    LockKind(String lockEvent, String unlockEvent, String type) {
        this.lockEvent = lockEvent;
        this.unlockEvent = unlockEvent;
        this.type = type;
    }

    public Map<String, Object> data(long configurator, long item) {
        return this == ITEM_PAGE ? Map.of("itemId", item, "page", "filters") : Map.of("configuratorId", configurator);
    }
}
