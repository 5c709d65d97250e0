package io.editlock.bench;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The generator's Vert.x: several event loops (one context each, sockets spread over them round
 * robin, so that thousands of sockets do not share one thread), a WebSocket client without a
 * connection limit, and a watchdog that times out requests that got no reply.
 */
final class Net implements AutoCloseable {

    final Vertx vertx;
    final List<Context> loops = new CopyOnWriteArrayList<>();
    private final WebSocketClient client;
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "bench-watchdog");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Sock> watched = new CopyOnWriteArrayList<>();
    private final long timeoutNanos;

    Net(int eventLoops, long requestTimeoutMillis) {
        this.vertx = Vertx.vertx(new VertxOptions()
                .setEventLoopPoolSize(eventLoops)
                .setPreferNativeTransport(false)
                .setBlockedThreadCheckInterval(10_000));
        Parallel.await(
                vertx.deployVerticle(
                        () -> new AbstractVerticle() {
                            @Override
                            public void start() {
                                loops.add(context);
                            }
                        },
                        new DeploymentOptions().setInstances(eventLoops)),
                30);
        this.client = vertx.createWebSocketClient(new WebSocketClientOptions()
                .setMaxConnections(1_000_000)
                .setConnectTimeout(30_000)
                .setMaxFrameSize(1 << 20)
                .setMaxMessageSize(1 << 22));
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis);
        watchdog.scheduleWithFixedDelay(this::expireOverdue, 200, 200, TimeUnit.MILLISECONDS);
    }

    private void expireOverdue() {
        long now = System.nanoTime();
        for (Sock sock : watched) {
            if (sock.overdue(now, timeoutNanos)) {
                sock.onContext(() -> sock.expire(timeoutNanos));
            }
        }
    }

    /**
     * Opens one socket per user (user i on target i mod targets), at most {@code concurrency}
     * upgrades at a time; for /locking and Socket.IO waits for each socket's welcome. Failures are counted and
     * left out of the list.
     */
    List<Sock> connect(
            List<URI> targets,
            String path,
            List<Users.User> users,
            int firstIndex,
            int concurrency,
            Counters counters) {
        boolean overSocketIo = path.startsWith("/socket.io/");
        boolean expectWelcome = path.startsWith("/locking") || overSocketIo;
        List<Sock> socks = Parallel.map(users.size(), concurrency, i -> {
            int index = firstIndex + i;
            URI target = targets.get(index % targets.size());
            Sock sock = new Sock(index, loops.get(index % loops.size()), users.get(i), counters);
            Promise<Sock> connected = Promise.promise();
            sock.onContext(() -> {
                WebSocketConnectOptions options = new WebSocketConnectOptions()
                        .setHost(target.getHost())
                        .setPort(target.getPort())
                        .setURI(path)
                        .setAllowOriginHeader(false)
                        .setTimeout(30_000)
                        .putHeader("Authorization", "Bearer " + sock.user.token());
                client.connect(options)
                        .onSuccess(ws -> sock.attach(ws, connected, expectWelcome, overSocketIo))
                        .onFailure(connected::tryFail);
            });
            return connected.future().recover(failure -> {
                counters.connectFailures.increment();
                counters.error("CONNECT_FAILED");
                System.err.println("connect failed: " + failure.getMessage());
                return Future.succeededFuture(null);
            });
        });
        List<Sock> open = new ArrayList<>();
        for (Sock sock : socks) {
            if (sock != null) {
                open.add(sock);
            }
        }
        watched.addAll(open);
        return open;
    }

    void closeAll(List<Sock> socks) {
        List<Future<Void>> closing = new ArrayList<>();
        for (Sock sock : socks) {
            closing.add(sock.close());
        }
        for (Future<Void> future : closing) {
            try {
                Parallel.await(future, 30);
            } catch (RuntimeException e) {
                // a socket that does not close in time is left to the server's ping timeout
            }
        }
        watched.removeAll(socks);
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
        Parallel.await(vertx.close(), 30);
    }
}
