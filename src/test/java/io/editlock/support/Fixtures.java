package io.editlock.support;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.catalog.Entity;
import io.editlock.catalog.EntryStore;
import io.editlock.catalog.Item;
import io.editlock.lock.Guard;
import io.editlock.lock.GuardType;
import io.editlock.lock.Holder;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;

/** Configurators, items and holders for tests; every call makes new ones, so tests never share state. */
public final class Fixtures {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private Fixtures() {}

    public static long configurator(ConfiguratorStore store) {
        return store.createConfigurator("test-" + UUID.randomUUID())
                .await()
                .atMost(WAIT)
                .id();
    }

    public static long item(ConfiguratorStore store, long configuratorId) {
        return item(store, configuratorId, null);
    }

    /** A configurator that {@code userId} created, as a create through the API would record it. */
    public static long configurator(ConfiguratorStore store, String userId) {
        return store.createConfigurator("test-" + UUID.randomUUID(), userId)
                .await()
                .atMost(WAIT)
                .id();
    }

    /** An item below {@code parentItemId} (null: at the top). */
    public static long item(ConfiguratorStore store, long configuratorId, Long parentItemId) {
        return store.addItem(configuratorId, "item", parentItemId)
                .await()
                .atMost(WAIT)
                .map(Item::id)
                .orElseThrow(() -> new AssertionError("configurator " + configuratorId
                        + (parentItemId == null ? "" : " or its item " + parentItemId) + " does not exist"));
    }

    /**
     * An entry on its page without a guard: an item's filter, dependency or attribute value ({@code
     * itemId} set), or a configurator's variable ({@code itemId} null).
     */
    public static long entry(
            EntryStore entries, Entity entity, long configuratorId, Long itemId, Map<String, String> fields) {
        Guard unguarded = new Guard(GuardType.NONE, configuratorId, itemId, null, "", OptionalLong.empty());
        return entries.add(unguarded, entity, fields).await().atMost(WAIT).id();
    }

    /** A user with one socket of their own. */
    public static Holder user(String name) {
        String id = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        return new Holder(id, name, "sock-" + UUID.randomUUID(), "node-test");
    }

    /** Another socket of the same user (another tab or device). */
    public static Holder otherSocket(Holder holder) {
        return new Holder(holder.userId(), holder.userName(), "sock-" + UUID.randomUUID(), holder.nodeId());
    }
}
