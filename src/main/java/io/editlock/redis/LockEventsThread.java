package io.editlock.redis;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.OptionalLong;

/**
 * The thread that delivers the lock events to this node. Work that reads the store and then decides
 * on what it read (a catch-up) runs its decision here, after the events delivered so far and before
 * the next: an event it may have overtaken is then either handled before it, and seen in the node's
 * state, or after it, and never told twice, without a lock shared with every event.
 */
@ApplicationScoped
public class LockEventsThread {

    private volatile LastingSubscription subscription;

    /** The subscription that delivers the lock events, once it is started. */
    public void deliveredBy(LastingSubscription subscription) {
        this.subscription = subscription;
    }

    /**
     * Since when ({@link System#nanoTime()}) this node has heard the lock events without a break; empty
     * while it does not hear them.
     */
    public OptionalLong heardSince() {
        LastingSubscription current = subscription;
        return current == null ? OptionalLong.empty() : current.activeSince();
    }

    /** Runs the task on that thread; at once while there is no subscription. */
    public void run(Runnable task) {
        LastingSubscription current = subscription;
        if (current == null) {
            task.run();
        } else {
            current.runOnContext(task);
        }
    }
}
