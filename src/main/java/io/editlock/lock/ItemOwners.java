package io.editlock.lock;

import io.smallrye.mutiny.Uni;
import java.util.Optional;

/**
 * Which configurator holds an item: what the locking domain needs to know of the catalog, which
 * implements it. An item page is locked in its configurator's hash slot, so its configurator must be
 * known first.
 */
public interface ItemOwners {

    /** @return the configurator that holds the item; empty when no such item exists */
    Uni<Optional<Long>> configuratorOfItem(long itemId);

    /** Fills in the configurator of an item page; empty when the item does not exist. */
    default Uni<Optional<Resource>> resolve(Resource requested) {
        if (requested.configuratorId() != null) {
            return Uni.createFrom().item(Optional.of(requested));
        }
        return configuratorOfItem(requested.itemId()).map(id -> id.map(requested::inConfigurator));
    }
}
