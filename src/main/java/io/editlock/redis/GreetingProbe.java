package io.editlock.redis;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;
import io.vertx.redis.client.RedisOptions;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What Redis says to a new connection before it is asked anything. Redis sends nothing unprompted but
 * a refusal ("-ERR max number of clients reached" at its maxclients, "-DENIED" in protected mode),
 * and then closes. A probe that writes nothing reads it whole; a client that sends its handshake at
 * once may have that write answered with a reset, which takes the refusal with it.
 */
final class GreetingProbe {

    /** Redis's port when a URL names none. */
    private static final int DEFAULT_PORT = 6379;

    private GreetingProbe() {}

    /** @return Redis's refusal of a new connection to the options' (first) endpoint, empty if it said none */
    static CompletionStage<Optional<String>> listen(Vertx vertx, RedisOptions options, Duration wait) {
        CompletableFuture<Optional<String>> heard = new CompletableFuture<>();
        NetClient client;
        SocketAddress endpoint;
        try {
            URI uri = URI.create(options.getEndpoint());
            boolean unix = "unix".equals(uri.getScheme());
            endpoint = unix
                    ? SocketAddress.domainSocketAddress(uri.getPath())
                    : SocketAddress.inetSocketAddress(uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(), uri.getHost());
            NetClientOptions net = new NetClientOptions(options.getNetClientOptions());
            if ("rediss".equals(uri.getScheme())) {
                net.setSsl(true);
            }
            client = vertx.createNetClient(net);
        } catch (RuntimeException unusable) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        heard.whenComplete((said, failure) -> client.close());
        AtomicReference<NetSocket> open = new AtomicReference<>();
        long timer = vertx.setTimer(wait.toMillis(), late -> {
            if (heard.complete(Optional.empty()) && open.get() != null) {
                open.get().close();
            }
        });
        heard.whenComplete((said, failure) -> vertx.cancelTimer(timer));
        client.connect(endpoint).onComplete(connected -> {
            if (connected.failed()) {
                heard.complete(Optional.empty());
                return;
            }
            NetSocket socket = connected.result();
            open.set(socket);
            Buffer received = Buffer.buffer();
            socket.handler(chunk -> {
                received.appendBuffer(chunk);
                firstLine(received).ifPresent(line -> {
                    heard.complete(refusal(line));
                    socket.close();
                });
            });
            socket.closeHandler(closed -> heard.complete(refusal(received.toString())));
            socket.exceptionHandler(failure -> heard.complete(refusal(received.toString())));
            if (heard.isDone()) {
                socket.close();
            }
        });
        return heard;
    }

    private static Optional<String> firstLine(Buffer received) {
        String text = received.toString();
        int end = text.indexOf("\r\n");
        return end < 0 ? Optional.empty() : Optional.of(text.substring(0, end));
    }

    /** An error reply ("-ERR …") is a refusal, without its marker; anything else is not. */
    private static Optional<String> refusal(String said) {
        String line = said.lines().findFirst().orElse("").trim();
        return line.startsWith("-") && line.length() > 1 ? Optional.of(line.substring(1)) : Optional.empty();
    }
}
