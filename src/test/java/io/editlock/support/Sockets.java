package io.editlock.support;

import io.editlock.support.DemoLogin.TestUser;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The welcomed {@code /locking} sockets that one test opens, all closed after it, and the bodies of
 * the requests about an item's {@code filters} page that the waiting-line and take-over tests send.
 *
 * <pre>{@code
 * private final Sockets sockets = new Sockets();
 *
 * @AfterEach
 * void close() {
 *     sockets.close();
 * }
 * ... WsClient tom = sockets.connect(base, DemoLogin.user("Tom"));
 * }</pre>
 */
public final class Sockets implements AutoCloseable {

    private final List<WsClient> open = new ArrayList<>();

    /** A socket of the user that has read its welcome; {@link #close()} closes it. */
    public WsClient connect(URI base, TestUser user) {
        WsClient socket = WsClient.connect(base, user.token());
        socket.welcome();
        open.add(socket);
        return socket;
    }

    /** Closes every socket this test opened. */
    @Override
    public void close() {
        open.forEach(WsClient::close);
        open.clear();
    }

    /** The body of {@code lock-item-subresource} and {@code unlock-item-subresource} for the item's filters page. */
    public static Map<String, Object> page(long item) {
        return Map.of("itemId", item, "page", "filters");
    }

    /** The item's filters page as a {@code resource} object of docs/protocol.md §13 and §14. */
    public static Map<String, Object> filters(long item) {
        return resource(item, "filters");
    }

    /** One page of the item as a {@code resource} object of docs/protocol.md §13 and §14. */
    public static Map<String, Object> resource(long item, String page) {
        return Map.of("type", "item-subresource", "itemId", item, "page", page);
    }

    /** The body of {@code lock-item-subresource} and {@code unlock-item-subresource} for one page of the item. */
    public static Map<String, Object> page(long item, String page) {
        return Map.of("itemId", item, "page", page);
    }

    /** The body of {@code wait-for} and {@code stop-waiting} for the item's filters page. */
    public static Map<String, Object> about(long item) {
        return Map.of("resource", filters(item));
    }
}
