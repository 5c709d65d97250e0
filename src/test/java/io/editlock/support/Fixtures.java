package io.editlock.support;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.catalog.Item;
import io.editlock.lock.Holder;
import java.time.Duration;
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
        return store.addItem(configuratorId, "item", null)
                .await()
                .atMost(WAIT)
                .map(Item::id)
                .orElseThrow(() -> new AssertionError("configurator " + configuratorId + " does not exist"));
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
