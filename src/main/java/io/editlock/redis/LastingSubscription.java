package io.editlock.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.pubsub.ReactivePubSubCommands.ReactiveRedisSubscriber;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * A pub/sub subscription that outlives its connection. A subscription ends with its connection (Redis
 * restarted or failed over, the pub/sub output-buffer limit, a network blip, {@code CLIENT KILL}), often
 * without an error, and what is published meanwhile is lost for good. This one subscribes again, with a
 * growing back-off, until it is back; then it calls its owner's {@code onBack}, which must make up for
 * what may have been missed.
 */
public final class LastingSubscription {

    private static final Logger LOG = Logger.getLogger(LastingSubscription.class);
    private static final long FIRST_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 5000;

    private final ReactiveRedisDataSource redis;
    private final Vertx vertx;
    private final String channel;
    private final Consumer<String> onMessage;
    private final Runnable onBack;
    private volatile ReactiveRedisSubscriber subscriber;
    private volatile boolean stopped;
    private volatile long backoffMs = FIRST_BACKOFF_MS;

    private LastingSubscription(
            ReactiveRedisDataSource redis, Vertx vertx, String channel, Consumer<String> onMessage, Runnable onBack) {
        this.redis = redis;
        this.vertx = vertx;
        this.channel = channel;
        this.onMessage = onMessage;
        this.onBack = onBack;
    }

    /**
     * @param onBack runs each time the subscription is back after it was lost (not after the first
     *     subscribe): messages published in between were not delivered
     */
    public static LastingSubscription start(
            ReactiveRedisDataSource redis, Vertx vertx, String channel, Consumer<String> onMessage, Runnable onBack) {
        LastingSubscription subscription = new LastingSubscription(redis, vertx, channel, onMessage, onBack);
        subscription.subscribe(false);
        return subscription;
    }

    public void stop() {
        stopped = true;
        ReactiveRedisSubscriber current = subscriber;
        if (current != null) {
            current.unsubscribe().subscribe().with(ignored -> {}, failure -> {});
        }
    }

    public String channel() {
        return channel;
    }

    /** Whether the subscription stands now (for readiness and tests). */
    public boolean active() {
        return subscriber != null;
    }

    private void subscribe(boolean afterLoss) {
        if (stopped) {
            return;
        }
        // One attempt ends once: its connection's end and its error may both be reported.
        AtomicBoolean ended = new AtomicBoolean();
        Runnable lost = () -> {
            if (ended.compareAndSet(false, true)) {
                lost();
            }
        };
        redis.pubsub(String.class)
                .subscribe(channel, onMessage, lost, failure -> lost.run())
                .subscribe()
                .with(
                        subscribed -> {
                            subscriber = subscribed;
                            backoffMs = FIRST_BACKOFF_MS;
                            if (stopped) {
                                stop();
                            } else if (afterLoss) {
                                LOG.infof("subscription to %s is back; making up for what it missed", channel);
                                onBack.run();
                            }
                        },
                        failure -> lost.run());
    }

    private void lost() {
        if (stopped) {
            return;
        }
        subscriber = null;
        long delay = backoffMs;
        backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
        LOG.warnf("subscription to %s lost; subscribing again in %d ms", channel, delay);
        vertx.setTimer(delay, id -> subscribe(true));
    }
}
