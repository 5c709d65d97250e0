package io.editlock.support;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.awaitility.core.ConditionFactory;

/**
 * A real WebSocket client of {@code /locking} for tests (the JDK's): sends events with a ref, waits
 * for the direct reply or for broadcasts, and ends the socket cleanly or by dropping it without a
 * close frame.
 */
public final class WsClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    /** The welcome, kept apart: a test that clears what it received still knows its socket. */
    private volatile JsonNode welcomed;

    private final AtomicInteger refs = new AtomicInteger();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private WebSocket socket;
    private volatile String closeReason;

    private WsClient() {}

    /** Connects with {@code Authorization: Bearer}; {@code token} null sends none. */
    public static WsClient connect(URI base, String token) {
        return connect(base, token, Map.of());
    }

    public static WsClient connect(URI base, String token, Map<String, String> headers) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        if (token != null) {
            all.put("Authorization", "Bearer " + token);
        }
        return connectTo(locking(base), all);
    }

    /**
     * Connects with an HTTP client of its own: the shared one handles every socket's I/O on one
     * thread, and a socket that must keep up while many others open would wait behind them.
     */
    public static WsClient connectAlone(URI base, String token) {
        return connectTo(
                HttpClient.newHttpClient(), locking(base), Map.of("Authorization", "Bearer " + token), List.of());
    }

    /** Connects to exactly this URI (e.g. with {@code ?access_token=}) with exactly these headers. */
    public static WsClient connectTo(URI uri, Map<String, String> headers) {
        return connectTo(uri, headers, List.of());
    }

    /** Connects offering these subprotocols (the first is the one most wanted). */
    public static WsClient connectTo(URI uri, Map<String, String> headers, List<String> subprotocols) {
        return connectTo(HTTP, uri, headers, subprotocols);
    }

    private static WsClient connectTo(
            HttpClient http, URI uri, Map<String, String> headers, List<String> subprotocols) {
        WsClient client = new WsClient();
        WebSocket.Builder builder = http.newWebSocketBuilder().connectTimeout(WAIT);
        headers.forEach(builder::header);
        if (!subprotocols.isEmpty()) {
            builder.subprotocols(
                    subprotocols.get(0),
                    subprotocols.subList(1, subprotocols.size()).toArray(String[]::new));
        }
        client.socket = builder.buildAsync(uri, client.new Listener())
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
        return client;
    }

    /** The HTTP status that refused the upgrade, if it was refused. */
    public static Optional<Integer> refusal(URI uri, Map<String, String> headers) {
        return refusal(uri, headers, List.of());
    }

    public static Optional<Integer> refusal(URI uri, Map<String, String> headers, List<String> subprotocols) {
        WebSocket.Builder builder = HTTP.newWebSocketBuilder().connectTimeout(WAIT);
        headers.forEach(builder::header);
        if (!subprotocols.isEmpty()) {
            builder.subprotocols(
                    subprotocols.get(0),
                    subprotocols.subList(1, subprotocols.size()).toArray(String[]::new));
        }
        try {
            WebSocket ws = builder.buildAsync(uri, new WebSocket.Listener() {}).join();
            ws.abort();
            return Optional.empty();
        } catch (CompletionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException handshake) {
                return Optional.of(handshake.getResponse().statusCode());
            }
            throw e;
        }
    }

    public static URI locking(URI base) {
        String http = base.toString().replaceAll("/+$", "");
        return URI.create(http.replaceFirst("^http", "ws") + "/locking");
    }

    /** Sends {event, data, ref} with a fresh ref and returns that ref. */
    public String send(String event, Map<String, ?> data) {
        return send(event, data, "r" + refs.incrementAndGet());
    }

    /** Sends {event, data, ref} with this ref; {@code data} null leaves the field out. */
    public String send(String event, Map<String, ?> data, String ref) {
        ObjectNode frame = JSON.createObjectNode().put("event", event).put("ref", ref);
        if (data != null) {
            frame.set("data", JSON.valueToTree(data));
        }
        sendRaw(frame.toString());
        return ref;
    }

    public void sendRaw(String text) {
        socket.sendText(text, true).orTimeout(10, TimeUnit.SECONDS).join();
    }

    public void sendBinary(byte[] bytes) {
        socket.sendBinary(ByteBuffer.wrap(bytes), true)
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
    }

    /** Sends and waits for the direct reply (the frame carrying the same ref). */
    public JsonNode request(String event, Map<String, ?> data) {
        return reply(send(event, data));
    }

    public JsonNode reply(String ref) {
        return awaitEvent(frame -> ref.equals(frame.path("ref").asText(null)));
    }

    /**
     * {@code resume} with that token once the server has noted the old socket's drop: until then the old
     * socket counts as open, and the reply is RESUME_FAILED (docs/protocol.md §5). The first other reply.
     */
    public JsonNode resumeOnceDropNoted(String resumeToken) {
        return soon().atMost(Duration.ofSeconds(10))
                .until(
                        () -> request("resume", Map.of("resumeToken", resumeToken)),
                        reply -> !reply.path("data").path("code").asText().equals("RESUME_FAILED"));
    }

    public JsonNode awaitEvent(String event) {
        return awaitEvent(frame -> event.equals(frame.path("event").asText()));
    }

    public JsonNode awaitEvent(Predicate<JsonNode> match) {
        return awaitEvent(match, WAIT);
    }

    public JsonNode awaitEvent(Predicate<JsonNode> match, Duration atMost) {
        return soon().atMost(atMost)
                .until(() -> received.stream().filter(match).findFirst(), Optional::isPresent)
                .get();
    }

    /** Every frame received so far that matches. */
    public List<JsonNode> frames(Predicate<JsonNode> match) {
        return received.stream().filter(match).toList();
    }

    /** The frames that carry this ref (direct replies; broadcasts carry none). */
    public List<JsonNode> repliesTo(String ref) {
        return frames(frame -> frame.has("ref") && ref.equals(frame.path("ref").asText()));
    }

    public List<JsonNode> events(String event) {
        return received.stream()
                .filter(frame -> event.equals(frame.path("event").asText()))
                .toList();
    }

    public List<JsonNode> received() {
        return received;
    }

    public void clear() {
        received.clear();
    }

    /** The welcome event every socket gets first. */
    public JsonNode welcome() {
        JsonNode known = welcomed;
        return known != null ? known : awaitEvent("welcome");
    }

    public String socketId() {
        return welcome().path("data").path("socketId").asText();
    }

    public String resumeToken() {
        return welcome().path("data").path("resumeToken").asText();
    }

    public void closeCleanly() {
        closeWith(WebSocket.NORMAL_CLOSURE);
    }

    /** Sends a close frame with this code (the JDK allows 1000 and 3000-4999) and waits for the server's. */
    public void closeWith(int code) {
        socket.sendClose(code, "bye").orTimeout(10, TimeUnit.SECONDS).join();
        soon().atMost(WAIT).until(closed::isDone);
    }

    /** Ends the TCP connection without a close frame: a network loss, as the server sees it. */
    public void drop() {
        socket.abort();
    }

    /** The close code the server sent, once it closed the socket. */
    public int awaitClosedByServer() {
        return awaitClosedByServer(WAIT);
    }

    public int awaitClosedByServer(Duration atMost) {
        soon().atMost(atMost).until(closed::isDone);
        return closed.join();
    }

    /** Asserts that {@code condition} holds all the time for {@code period}. */
    public static void stays(Callable<Boolean> condition, Duration period, String message) {
        await(message)
                .during(period)
                .atMost(period.plusSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(condition);
    }

    /** The reason of the server's close frame, once it closed the socket. */
    public String closeReason() {
        return closeReason;
    }

    /** The subprotocol the server accepted ("" for none). */
    public String subprotocol() {
        return socket.getSubprotocol();
    }

    public boolean isClosed() {
        return closed.isDone();
    }

    @Override
    public void close() {
        if (!closed.isDone() && !socket.isOutputClosed()) {
            socket.abort();
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    JsonNode frame = JSON.readTree(partial.toString());
                    if (welcomed == null && "welcome".equals(frame.path("event").asText())) {
                        welcomed = frame;
                    }
                    received.add(frame);
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException("the server sent a frame that is not JSON: " + partial, e);
                }
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPing(WebSocket webSocket, ByteBuffer message) {
            webSocket.request(1);
            return WebSocket.Listener.super.onPing(webSocket, message);
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closeReason = reason;
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.complete(-1);
        }
    }

    /** Checks at once and then often: a reply usually arrives within milliseconds (Awaitility's default first look is after 100 ms). */
    static ConditionFactory soon() {
        return await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10));
    }
}
