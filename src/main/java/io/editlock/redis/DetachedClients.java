package io.editlock.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Creates Vert.x clients on a thread of its own, so that their creator closes them, not the verticle
 * that happened to ask. A client created on a verticle's context is closed when that verticle is
 * undeployed: a Redis client that a WebSocket handler created would be closed by the HTTP server as
 * the node stops, before the shutdown's last commands are through, and a connection it closes in the
 * middle of its handshake (before anything took its errors over) is logged as an unhandled error.
 * Created here, on no verticle's context, a client lives until it is closed, or until Vert.x closes.
 * Once this is closed, nothing more is created: a node that stops opens no new connections.
 */
final class DetachedClients implements AutoCloseable {

    private final ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
        Thread creator = new Thread(task, "editlock-redis-clients");
        creator.setDaemon(true);
        return creator;
    });

    <T> CompletionStage<T> create(Supplier<T> factory) {
        try {
            return CompletableFuture.supplyAsync(factory, thread);
        } catch (RuntimeException refused) {
            return CompletableFuture.failedFuture(refused);
        }
    }

    @Override
    public void close() {
        thread.shutdown();
    }
}
