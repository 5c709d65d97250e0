package io.editlock.bench.echo;

import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.smallrye.mutiny.Uni;

/**
 * {@code /bench/echo}: returns every text frame as it is. Only in a bench build ({@code -Pbench},
 * see bench/run): the ceiling of a WebSocket round trip through this server's HTTP stack, upgrade
 * check (the same token as {@code /locking}) and event loop, without a lock decision or Redis.
 * Runs on the event loop like {@code /locking} (a {@link Uni} return), never on a worker thread.
 */
@WebSocket(path = "/bench/echo")
public class BenchEchoSocket {

    @OnTextMessage
    public Uni<String> echo(String frame) {
        return Uni.createFrom().item(frame);
    }
}
