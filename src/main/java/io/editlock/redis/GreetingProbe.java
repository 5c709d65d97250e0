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
 *
 * <p>A probe whose own connection fails tells why: the Redis Cluster client reports a shard it could not
 * reach without the cause (a TLS handshake refused for a certificate that does not name the shard's
 * address reads only "Failed to create SSL connection"), and the probe's connection, made with the same
 * options, carries it.
 */
final class GreetingProbe {

    /**
     * What a new connection heard.
     *
     * @param refusal Redis's refusal, without its "-" marker
     * @param failure why the probe's own connection failed, in words ({@link OpenFailures#describe})
     */
    record Heard(Optional<String> refusal, Optional<String> failure) {

        static final Heard NOTHING = new Heard(Optional.empty(), Optional.empty());

        static Heard refused(Optional<String> refusal) {
            return new Heard(refusal, Optional.empty());
        }

        static Heard failed(Throwable failure) {
            return new Heard(Optional.empty(), Optional.of(OpenFailures.describe(failure)));
        }
    }

    /** Redis's port when a URL names none. */
    private static final int DEFAULT_PORT = 6379;

    private GreetingProbe() {}

    /** @return what a new connection to {@code url}, made with the options' TLS and socket settings, heard */
    static CompletionStage<Heard> listen(Vertx vertx, RedisOptions options, String url, Duration wait) {
        CompletableFuture<Heard> heard = new CompletableFuture<>();
        NetClient client;
        SocketAddress endpoint;
        try {
            URI uri = URI.create(url);
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
            return CompletableFuture.completedFuture(Heard.NOTHING);
        }
        heard.whenComplete((said, failure) -> client.close());
        AtomicReference<NetSocket> open = new AtomicReference<>();
        long timer = vertx.setTimer(wait.toMillis(), late -> {
            if (heard.complete(Heard.NOTHING) && open.get() != null) {
                open.get().close();
            }
        });
        heard.whenComplete((said, failure) -> vertx.cancelTimer(timer));
        client.connect(endpoint).onComplete(connected -> {
            if (connected.failed()) {
                heard.complete(Heard.failed(connected.cause()));
                return;
            }
            NetSocket socket = connected.result();
            open.set(socket);
            Buffer received = Buffer.buffer();
            socket.handler(chunk -> {
                received.appendBuffer(chunk);
                firstLine(received).ifPresent(line -> {
                    heard.complete(Heard.refused(refusal(line)));
                    socket.close();
                });
            });
            socket.closeHandler(closed -> heard.complete(Heard.refused(refusal(received.toString()))));
            socket.exceptionHandler(failure -> heard.complete(Heard.refused(refusal(received.toString()))));
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
