package io.editlock.events;

import io.editlock.lock.redis.LockScripts;
import io.editlock.redis.StoreDataWatch;
import io.editlock.session.SessionRegistry;
import io.editlock.session.WatchedAfterLoss;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * The schedule of lease ends ({@code lease-expiries}) is one key. On a Redis Cluster it lives on one
 * shard, which can lose its data while the shards that hold the locks keep theirs: a lock would then
 * outlive its lease unannounced, and its line go unserved, until a new grant in its configurator
 * scheduled a look. So a node that finds the store's data lost has the reapers look at once at every
 * configurator watched on it (a socket that locks or waits in a configurator watches it); each look
 * ends what ran out and schedules the next one, as after any look.
 */
@ApplicationScoped
public class LeaseLooksAfterLoss {

    private static final Logger LOG = Logger.getLogger(LeaseLooksAfterLoss.class);
    /** A look due since the epoch: due at once, and never later than one a grant asked for. */
    private static final long AT_ONCE = 0;

    private final SessionRegistry registry;
    private final LockScripts scripts;

    public LeaseLooksAfterLoss(SessionRegistry registry, LockScripts scripts) {
        this.registry = registry;
        this.scripts = scripts;
    }

    void storeDataLost(@Observes StoreDataWatch.StoreDataLost lost) {
        WatchedAfterLoss.forEach(
                        registry,
                        configuratorId ->
                                scripts.scheduleExpiry(configuratorId, AT_ONCE).replaceWith(1))
                .subscribe()
                .with(
                        done -> {
                            if (done.configurators() > 0) {
                                LOG.infof(
                                        "after the loss of store data: the lease ends of %d watched configurator(s)"
                                                + " are looked at again",
                                        done.configurators());
                            }
                        },
                        failure -> LOG.warnf(
                                "after the loss of store data, the lease ends of some watched configurators were not"
                                        + " looked at again (their locks end unannounced unless a grant there"
                                        + " schedules a look): %s",
                                failure.getMessage()));
    }
}
