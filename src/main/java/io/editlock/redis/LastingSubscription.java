package io.editlock.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * A pub/sub subscription that outlives its connection. A subscription ends with its connection (Redis
 * restarted or failed over, the pub/sub output-buffer limit, a network blip, {@code CLIENT KILL}), often
 * without an error, and what is published meanwhile is lost for good. This one subscribes again, with a
 * growing back-off, until it is back; then it calls its owner's {@code onBack}, which must make up for
 * what may have been missed.
 *
 * <p>It holds its connection itself rather than through the Redis client's subscriber, because a
 * subscribe can fail without its connection ending: Redis refuses it ({@code NOPERM}, an ACL without
 * editlock's channels) or never answers it. The client's subscriber then neither completes nor fails
 * and keeps the connection open. Here such an attempt is given up, its connection closed, and the next
 * one made after the back-off, so a node hears again by itself once the ACL is mended.
 */
public final class LastingSubscription {

    private static final Logger LOG = Logger.getLogger(LastingSubscription.class);
    private static final long FIRST_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 5000;
    /** A subscribe that Redis neither confirms nor refuses in this time is given up. */
    private static final long CONFIRM_TIMEOUT_MS = 10_000;

    private final Redis client;
    private final Vertx vertx;
    private final String channel;
    private final Consumer<String> onMessage;
    private final Runnable onBack;
    private final Supplier<Uni<Void>> beforeAgain;
    private volatile Attempt current;
    private volatile boolean active;
    /** When the subscription last came to stand ({@link System#nanoTime()}); meaningless while not active. */
    private volatile long activeSince;

    private volatile boolean stopped;
    private volatile long backoffMs = FIRST_BACKOFF_MS;
    /** Failed attempts since the subscription last stood: the first is logged as a warning, the rest quietly. */
    private volatile int failures;

    private LastingSubscription(
            Redis client,
            Vertx vertx,
            String channel,
            Consumer<String> onMessage,
            Supplier<Uni<Void>> beforeAgain,
            Runnable onBack) {
        this.client = client;
        this.vertx = vertx;
        this.channel = channel;
        this.onMessage = onMessage;
        this.beforeAgain = beforeAgain;
        this.onBack = onBack;
    }

    /**
     * @param onBack runs each time the subscription is back after it was lost or refused (not after a
     *     first subscribe that succeeded): messages published in between were not delivered
     */
    public static LastingSubscription start(
            ReactiveRedisDataSource redis, Vertx vertx, String channel, Consumer<String> onMessage, Runnable onBack) {
        return start(redis, vertx, channel, onMessage, () -> Uni.createFrom().voidItem(), onBack);
    }

    /**
     * @param beforeAgain runs before each subscribe after a loss and is waited for, also when it fails: what
     *     {@code onBack} then reads of the store, it reads after this
     */
    public static LastingSubscription start(
            ReactiveRedisDataSource redis,
            Vertx vertx,
            String channel,
            Consumer<String> onMessage,
            Supplier<Uni<Void>> beforeAgain,
            Runnable onBack) {
        LastingSubscription subscription =
                new LastingSubscription(redis.getRedis(), vertx, channel, onMessage, beforeAgain, onBack);
        subscription.subscribe(false);
        return subscription;
    }

    public void stop() {
        stopped = true;
        active = false;
        Attempt attempt = current;
        if (attempt != null) {
            attempt.close();
        }
    }

    public String channel() {
        return channel;
    }

    /**
     * Runs the task on the thread that delivers this subscription's messages, after the messages
     * delivered so far: an owner that must order its own work with the messages (a read of what they
     * change) needs no lock for it. Runs it at once while no subscription stands.
     */
    public void runOnContext(Runnable task) {
        Attempt attempt = current;
        Context context = attempt == null ? null : attempt.context;
        if (context == null) {
            task.run();
        } else {
            context.runOnContext(ignored -> task.run());
        }
    }

    /** Whether Redis confirmed the subscription and its connection still stands (for readiness and tests). */
    public boolean active() {
        return active;
    }

    /**
     * Since when ({@link System#nanoTime()}) the subscription has stood without a break, so that every
     * message published since was delivered; empty while it does not stand.
     */
    public OptionalLong activeSince() {
        // A break and a new subscription between the two reads would pair the old moment with the new one.
        long since = activeSince;
        boolean standing = active;
        return standing && since == activeSince ? OptionalLong.of(since) : OptionalLong.empty();
    }

    private void subscribe(boolean afterLoss) {
        if (stopped) {
            return;
        }
        if (!afterLoss) {
            attempt(false);
            return;
        }
        beforeAgain.get().subscribe().with(ignored -> attempt(true), failure -> attempt(true));
    }

    private void attempt(boolean afterLoss) {
        if (stopped) {
            return;
        }
        Attempt attempt = new Attempt(afterLoss);
        current = attempt;
        attempt.start();
    }

    private void failed(String reason) {
        active = false;
        if (stopped) {
            return;
        }
        long delay = backoffMs;
        backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
        if (failures++ == 0) {
            LOG.warnf("subscription to %s lost (%s); subscribing again in %d ms", channel, reason, delay);
        } else {
            LOG.debugf("subscription to %s still down (%s); subscribing again in %d ms", channel, reason, delay);
        }
        vertx.setTimer(delay, id -> subscribe(true));
    }

    private void stands(boolean afterLoss) {
        activeSince = System.nanoTime();
        active = true;
        backoffMs = FIRST_BACKOFF_MS;
        int failed = failures;
        failures = 0;
        if (afterLoss) {
            LOG.infof(
                    "subscription to %s is back after %d failed attempt(s); making up for what it missed",
                    channel, failed);
            onBack.run();
        }
    }

    /** One connection and its SUBSCRIBE. It ends once: its connection's end, its error and a refusal may all be reported. */
    private final class Attempt {
        private final boolean afterLoss;
        private final AtomicBoolean ended = new AtomicBoolean();
        private volatile RedisConnection connection;
        private volatile boolean confirmed;
        private volatile long timer = -1;
        /** Where its messages are delivered, once it stands. */
        private volatile Context context;

        Attempt(boolean afterLoss) {
            this.afterLoss = afterLoss;
        }

        void start() {
            client.connect().subscribe().with(this::connected, failure -> end(OpenFailures.describe(failure)));
        }

        private void connected(RedisConnection opened) {
            connection = opened;
            if (ended.get() || stopped) {
                QuietClose.close(opened);
                return;
            }
            timer = vertx.setTimer(CONFIRM_TIMEOUT_MS, id -> {
                if (!confirmed) {
                    end("no answer to SUBSCRIBE within " + CONFIRM_TIMEOUT_MS + " ms");
                }
            });
            opened.handler(this::received)
                    .exceptionHandler(failure -> end(OpenFailures.describe(failure)))
                    .endHandler(() -> end("connection closed"));
            opened.send(Request.cmd(Command.SUBSCRIBE).arg(channel))
                    .subscribe()
                    .with(sent -> {}, failure -> end(OpenFailures.describe(failure)));
        }

        /** Pushed by Redis on this connection: the confirmation, a message, or a refusal. */
        private void received(Response reply) {
            if (reply == null || ended.get()) {
                return;
            }
            if (reply.type() == ResponseType.ERROR) {
                end("Redis refused it: " + reply);
                return;
            }
            if (reply.size() < 2) {
                return;
            }
            String kind = reply.get(0).toString();
            if ("message".equalsIgnoreCase(kind) && reply.size() >= 3) {
                deliver(reply.get(2).toString());
            } else if ("subscribe".equalsIgnoreCase(kind) && !confirmed) {
                context = Vertx.currentContext();
                confirmed = true;
                vertx.cancelTimer(timer);
                if (stopped) {
                    close();
                } else {
                    stands(afterLoss);
                }
            }
        }

        private void deliver(String message) {
            try {
                onMessage.accept(message);
            } catch (RuntimeException e) {
                // One message its owner could not take must not end the subscription of every later one.
                LOG.errorf(e, "a message on %s could not be handled", channel);
            }
        }

        private void end(String reason) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            closeConnection();
            if (current == this) {
                failed(reason);
            }
        }

        /** Ended on purpose: no next attempt. */
        void close() {
            if (ended.compareAndSet(false, true)) {
                closeConnection();
            }
        }

        private void closeConnection() {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
            RedisConnection opened = connection;
            if (opened != null) {
                QuietClose.close(opened);
            }
        }
    }
}
