package io.editlock.redis;

import io.editlock.config.StartRefusal;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The pool of Quarkus's Redis client ({@value #SETTING}) carries no lock commands (those are
 * pipelined, see {@link PipelinedRedis}), but every pub/sub subscription holds one of its connections
 * for as long as it stands, and the readiness check's PING borrows one more. A pool smaller than that
 * fails without a word: a subscription waits for a connection that never frees up, so its broadcasts
 * are lost, and the readiness check times out. So the start fails instead, naming the setting.
 */
@ApplicationScoped
public class RedisPoolSize {

    static final String SETTING = "quarkus.redis.max-pool-size";

    /**
     * The {@link LastingSubscription}s every node starts: lock events (waiting events among them),
     * content events and the node's inbox.
     */
    static final int SUBSCRIPTIONS = 3;

    /**
     * Quarkus's own Redis health check PINGs through the pool. It is off (its DOWN answer shows Redis's
     * address to whoever reaches the node), but an operator may turn it on, and it must then find a connection.
     */
    static final int HEALTH_CHECK = 1;

    static final int MINIMUM = SUBSCRIPTIONS + HEALTH_CHECK;

    private final int maxPoolSize;

    public RedisPoolSize(@ConfigProperty(name = SETTING, defaultValue = "6") int maxPoolSize) {
        this.maxPoolSize = maxPoolSize;
    }

    // Before the subscriptions, which start on the same event, take their connections.
    void check(@Observes @Priority(1) StartupEvent started) {
        requireEnough(maxPoolSize);
    }

    static void requireEnough(int maxPoolSize) {
        if (maxPoolSize < MINIMUM) {
            throw StartRefusal.told(new IllegalStateException(SETTING + " is " + maxPoolSize + ", below the " + MINIMUM
                    + " connections a node holds in that pool: one for each of its " + SUBSCRIPTIONS
                    + " pub/sub subscriptions (lock and waiting events, content events, the node's inbox) and one"
                    + " for Quarkus's Redis health check should it be on. Set it to " + MINIMUM + " or more."));
        }
    }
}
