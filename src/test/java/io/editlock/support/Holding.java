package io.editlock.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.Map;

/** A user's WebSocket that takes locks, for REST tests: every lock is awaited until granted. */
public final class Holding implements AutoCloseable {

    private final WsClient socket;

    private Holding(WsClient socket) {
        this.socket = socket;
    }

    public static Holding connect(URI base, DemoLogin.TestUser user) {
        WsClient socket = WsClient.connect(base, user.token());
        socket.welcome();
        return new Holding(socket);
    }

    /** @return the granted lock (with its token) */
    public JsonNode configurator(long configuratorId) {
        return granted("lock-configurator", Map.of("configuratorId", configuratorId));
    }

    public JsonNode variables(long configuratorId) {
        return granted("lock-variables", Map.of("configuratorId", configuratorId));
    }

    public JsonNode page(long itemId, String page) {
        return granted("lock-item-subresource", Map.of("itemId", itemId, "page", page));
    }

    public WsClient socket() {
        return socket;
    }

    private JsonNode granted(String event, Map<String, ?> data) {
        JsonNode reply = socket.request(event, data);
        assertEquals(
                "lock-acquired",
                reply.path("event").asText(),
                "expected " + event + " " + data + " to be granted: " + reply);
        return reply.path("data").path("lock");
    }

    @Override
    public void close() {
        if (!socket.isClosed()) {
            socket.closeCleanly();
        }
    }
}
