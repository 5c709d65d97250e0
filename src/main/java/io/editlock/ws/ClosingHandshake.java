package io.editlock.ws;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * How long a socket the server closes (ping timeout, the node stops, the token ended, …) waits for
 * the client's close frame before its TCP connection is ended. The peers the server closes are
 * mostly ones that stopped answering: Vert.x's default of 10 s would let such a socket hold its
 * locks, renewed, for those 10 s before its drop even begins (docs/protocol.md §5), and would keep
 * a stopping node waiting for it. A live client answers a close frame within milliseconds.
 */
@ApplicationScoped
public class ClosingHandshake implements HttpServerOptionsCustomizer {

    static final int CLOSE_FRAME_WAIT_SECONDS = 1;

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        options.setWebSocketClosingTimeout(CLOSE_FRAME_WAIT_SECONDS);
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        options.setWebSocketClosingTimeout(CLOSE_FRAME_WAIT_SECONDS);
    }
}
