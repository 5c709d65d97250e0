package io.editlock.support;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.fail;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.vertx.mutiny.redis.client.Command;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A step taken while the node's subscription to a channel is down: its pub/sub connections are cut
 * off ({@code CLIENT KILL TYPE pubsub}), the step runs at once, and what it publishes reaches no node.
 * The node subscribes again a tenth of a second after the cut, so a step must be quick (a call in the
 * process, not a client's round trip); whether nobody listened until it was over is checked, and a
 * scene whose step may have been heard is played again, so that a test never passes on an event the
 * node heard after all.
 */
public final class PubSubOutage {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final int ATTEMPTS = 5;

    private PubSubOutage() {}

    /**
     * Sets a scene up and takes its step while nobody listens on {@code channel}, again with a new
     * scene until the node certainly missed the step; returns once the node listens again.
     *
     * @return the scene whose step the node missed
     */
    public static <S> S missed(ReactiveRedisDataSource redis, String channel, Supplier<S> setUp, Consumer<S> step) {
        return missed(redis, channel, setUp, step, scene -> {});
    }

    /**
     * As {@link #missed(ReactiveRedisDataSource, String, Supplier, Consumer)}, for scenes that hold
     * something back (a request held in a script hook): {@code discard} lets go of each scene not
     * returned, one whose step was heard, or the last one when none was missed.
     */
    public static <S> S missed(
            ReactiveRedisDataSource redis, String channel, Supplier<S> setUp, Consumer<S> step, Consumer<S> discard) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            S scene = setUp.get();
            boolean missed = false;
            try {
                redis.execute(Command.CLIENT, "KILL", "TYPE", "pubsub").await().atMost(WAIT);
                step.accept(scene);
                missed = subscribers(redis, channel) == 0;
                await("the node listens on " + channel + " again")
                        .atMost(WAIT)
                        .until(() -> subscribers(redis, channel) >= 1);
            } finally {
                if (!missed) {
                    discard.accept(scene);
                }
            }
            if (missed) {
                return scene;
            }
        }
        return fail("in " + ATTEMPTS + " attempts, the node listened again before the step was over every time");
    }

    private static long subscribers(ReactiveRedisDataSource redis, String channel) {
        return Optional.ofNullable(
                        redis.execute(Command.PUBSUB, "NUMSUB", channel).await().atMost(WAIT))
                .map(reply -> reply.get(1).toLong())
                .orElse(0L);
    }
}
