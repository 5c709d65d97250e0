package io.editlock.waiting;

import io.editlock.lock.Lock;
import io.editlock.lock.redis.UserConfigurators;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * One configurator lock per user (docs/protocol.md §2) also when a configurator comes from a waiting
 * line: the user's previous configurator lock is released (reason {@code replaced}) by its exact
 * grant, as for a lock request. Run by every node with a socket that keeps the new grant.
 */
@ApplicationScoped
public class QueuedConfiguratorSwitch {

    private final UserConfigurators users;

    public QueuedConfiguratorSwitch(UserConfigurators users) {
        this.users = users;
    }

    public Uni<Void> granted(Lock lock) {
        return users.switchTo(lock, "").replaceWithVoid();
    }
}
