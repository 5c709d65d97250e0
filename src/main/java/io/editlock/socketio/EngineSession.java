package io.editlock.socketio;

import io.editlock.session.FrameSender;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One Engine.IO v4 connection: its transport (long-polling, or a WebSocket from the start or after
 * the upgrade), the packets waiting for the next poll, and the server's pings. Requests of one
 * session may come on different event loops, so its state is guarded by the session's lock; the
 * {@link Listener} is never called while that lock is held.
 */
final class EngineSession {

    /** The layer above: Socket.IO. */
    interface Listener {
        void onMessage(String text);

        /** A binary message: Socket.IO attachments, which editlock refuses. */
        void onBinary();

        void onPong();

        /** Whether a Socket.IO socket is connected on the session. */
        boolean connected();

        /**
         * Called once, whatever ended the session. @param pageGone the WebSocket transport closed
         * with 1001: the browser's page went away, perhaps only to load again (docs/protocol.md §5)
         */
        void onClose(String reason, boolean pageGone);
    }

    private static final String TEXT_PLAIN = "text/plain; charset=UTF-8";
    private static final short MESSAGE_TOO_BIG = 1009;
    private static final short GOING_AWAY = 1001;
    private static final short POLICY_VIOLATION = 1008;
    /**
     * While an upgrade is being probed, a poll is answered with a noop at most this often: the client
     * polls again at once, and would spin until its probe ends.
     */
    private static final long NOOP_INTERVAL_MS = 100;

    private final String sid;
    private final Handshake handshake;
    private final EngineSettings settings;
    private final Consumer<EngineSession> onEnd;
    private final Vertx vertx;
    /** Bytes sent and not yet written out, on either transport; under the lock. */
    private long unsent;

    private volatile Listener listener;
    private final List<String> outbox = new ArrayList<>();
    /** Completed when the packets in the outbox are written out: what is unsent counts towards a socket's limit. */
    private final List<Promise<Void>> outboxWritten = new ArrayList<>();

    private HttpServerResponse poll;
    /** A POST's body is being received; under the lock. */
    private boolean receiving;

    private ServerWebSocket socket;
    private ServerWebSocket probe;
    private boolean upgrading;
    /**
     * When the last noop went out during the upgrade ({@link System#nanoTime()}, whose origin is
     * arbitrary: the first noop is due at once, as if one had gone out an interval before the session).
     */
    private long lastNoopNanos = System.nanoTime() - NOOP_INTERVAL_MS * 1_000_000;

    private boolean noopDue;
    private boolean connectTimerArmed;
    /** When a session still without a socket is closed ({@link System#nanoTime()}); under the lock. */
    private long connectDeadlineNanos;

    private boolean closed;
    /**
     * Closed by the server while no poll was parked: the next poll gets what waited and the close
     * packet, and the sid is kept for it; under the lock.
     */
    private boolean farewell;

    private final EngineHeartbeat heartbeat;

    EngineSession(
            String sid, Handshake handshake, EngineSettings settings, Vertx vertx, Consumer<EngineSession> onEnd) {
        this.sid = sid;
        this.handshake = handshake;
        this.settings = settings;
        this.onEnd = onEnd;
        this.vertx = vertx;
        this.heartbeat = new EngineHeartbeat(
                vertx, settings, () -> send(String.valueOf(EnginePackets.PING)), () -> close("ping timeout"));
    }

    String sid() {
        return sid;
    }

    Handshake handshake() {
        return handshake;
    }

    void listener(Listener listener) {
        this.listener = listener;
    }

    synchronized boolean isOpen() {
        return !closed;
    }

    /** Still on long-polling (also while an upgrade is being probed). */
    synchronized boolean isPolling() {
        return socket == null;
    }

    /** The handshake of a session that starts on long-polling: the open packet is the first poll's answer. */
    synchronized void openPolling(HttpServerResponse response) {
        response.putHeader(HttpHeaders.CONTENT_TYPE, TEXT_PLAIN).end(settings.openPacket(sid, true));
        heartbeat.start();
        closeUnlessConnectedSoon();
    }

    /** The handshake of a session that is a WebSocket from the start. */
    synchronized void openWebSocket(ServerWebSocket webSocket) {
        socket = webSocket;
        listen(webSocket);
        webSocket.writeTextMessage(settings.openPacket(sid, false));
        heartbeat.start();
        closeUnlessConnectedSoon();
    }

    /**
     * The handshake takes no token: a session that no Socket.IO socket connected on is closed once the
     * connect timeout is over, so that sessions nobody identified cannot pile up. Armed at the handshake,
     * and again when a socket that connected disconnects; a refused CONNECT does not put it off.
     */
    void closeUnlessConnectedSoon() {
        synchronized (this) {
            connectDeadlineNanos = System.nanoTime() + settings.connectTimeoutMs() * 1_000_000;
            // One timer at a time: a DISCONNECT while one runs moves its deadline.
            if (connectTimerArmed) {
                return;
            }
            connectTimerArmed = true;
        }
        connectTimer(settings.connectTimeoutMs());
    }

    private void connectTimer(long delayMs) {
        vertx.setTimer(Math.max(1, delayMs), ignored -> {
            long leftMs;
            synchronized (this) {
                leftMs = (connectDeadlineNanos - System.nanoTime()) / 1_000_000;
                connectTimerArmed = leftMs > 0;
            }
            if (leftMs > 0) {
                connectTimer(leftMs);
                return;
            }
            Listener current = listener;
            if (current == null || !current.connected()) {
                close("connect timeout");
            }
        });
    }

    /** A socket.io message packet (the engine's {@code 4}); the future completes when it is written out. */
    Future<Void> sendMessage(String text) {
        return send(EnginePackets.MESSAGE + text);
    }

    /** A long-poll: answered at once with what waits, or parked until there is something to send. */
    void poll(HttpServerResponse response) {
        boolean overlap;
        synchronized (this) {
            if (closed) {
                boolean last = farewell;
                String packets = last ? EnginePackets.join(outbox) : String.valueOf(EnginePackets.CLOSE);
                forget();
                response.putHeader(HttpHeaders.CONTENT_TYPE, TEXT_PLAIN).end(packets);
                return;
            }
            overlap = poll != null;
            if (!overlap) {
                poll = response;
                response.putHeader(HttpHeaders.CONTENT_TYPE, TEXT_PLAIN);
                response.closeHandler(ignored -> pollConnectionLost(response));
                if (!outbox.isEmpty()) {
                    flushPoll();
                } else if (upgrading) {
                    releaseSoon();
                }
            }
        }
        if (overlap) {
            // Two polls at once: not a client that follows the protocol (Engine.IO servers end it too).
            response.setStatusCode(400)
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(EngineError.BAD_REQUEST.body());
            close("transport error");
        }
    }

    /**
     * A POST begins. Engine.IO clients send one at a time: packets from two at once could be handled
     * out of order, so the second is refused (and the session ended, as Engine.IO servers do).
     *
     * @return false when another POST of this session is still being received
     */
    synchronized boolean postStarted() {
        if (receiving) {
            return false;
        }
        receiving = true;
        return true;
    }

    /** The POST being received has been handled. */
    synchronized void postEnded() {
        receiving = false;
    }

    /** The packets of one polling POST, in order. */
    void post(String payload) {
        for (String packet : EnginePackets.split(payload)) {
            receive(packet);
        }
    }

    /** A WebSocket opened with this session's sid: the upgrade probe ({@code 2probe}, then {@code 5}). */
    synchronized void probe(ServerWebSocket webSocket) {
        if (closed || socket != null || probe != null) {
            webSocket.close();
            return;
        }
        probe = webSocket;
        listen(webSocket);
        endProbeUnlessUpgradedSoon(webSocket);
    }

    /**
     * The server ends the session (its socket's token ended, the node stops). A polling client whose
     * poll is not parked at this moment (its answer is on the way, the next one not yet here) gets what
     * waited for it and the close packet on its next poll, as from Engine.IO servers: it sees the
     * server's close, not a transport error. The sid is kept for that poll, at most a ping timeout.
     *
     * @param keepWhatWaits false for a client cut off as too slow: its last poll gets the close packet only
     */
    void closeByServer(boolean keepWhatWaits) {
        boolean keep;
        synchronized (this) {
            if (closed) {
                return;
            }
            keep = socket == null && poll == null;
            farewell = keep;
            if (!keepWhatWaits) {
                outbox.clear();
            }
        }
        close("forced close");
        if (keep) {
            vertx.setTimer(settings.pingTimeoutMs(), ignored -> forget());
        }
    }

    /** Ends the session: the server's close, a ping timeout, the client's close packet, a lost transport. */
    void close(String reason) {
        close(reason, (short) 1000, false);
    }

    private void close(String reason, short webSocketCode) {
        close(reason, webSocketCode, false);
    }

    private void close(String reason, short webSocketCode, boolean pageGone) {
        boolean keepSid;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            keepSid = farewell;
            heartbeat.stop();
            if (farewell) {
                outbox.add(String.valueOf(EnginePackets.CLOSE));
            } else {
                outbox.clear();
            }
            outboxWritten.forEach(written -> written.tryFail("closed"));
            outboxWritten.clear();
            if (poll != null) {
                HttpServerResponse parked = poll;
                poll = null;
                parked.end(String.valueOf(EnginePackets.CLOSE));
            }
            closeQuietly(socket, webSocketCode, reason);
            closeQuietly(probe, webSocketCode, reason);
        }
        if (!keepSid) {
            onEnd.accept(this);
        }
        Listener current = listener;
        if (current != null) {
            current.onClose(reason, pageGone);
        }
    }

    /** The farewell of a session the server closed is over (delivered, or nobody came for it): the sid goes. */
    private void forget() {
        synchronized (this) {
            farewell = false;
            outbox.clear();
        }
        onEnd.accept(this);
    }

    private static void closeQuietly(ServerWebSocket webSocket, short code, String reason) {
        if (webSocket != null && !webSocket.isClosed()) {
            webSocket.close(code, reason);
        }
    }

    private Future<Void> send(String packet) {
        long size = FrameSender.utf8Length(packet);
        Future<Void> written;
        synchronized (this) {
            if (closed) {
                return Future.failedFuture("closed");
            }
            if (unsent + size > settings.maxUnsentBytes()) {
                written = null;
            } else {
                unsent += size;
                if (socket != null) {
                    written = socket.writeTextMessage(packet);
                } else {
                    Promise<Void> carried = Promise.promise();
                    outbox.add(packet);
                    outboxWritten.add(carried);
                    flushPoll();
                    written = carried.future();
                }
            }
        }
        if (written == null) {
            // A client that reads nothing, or too slowly: what it would not read is not kept for it.
            close("too slow", POLICY_VIOLATION);
            return Future.failedFuture("closed");
        }
        return written.onComplete(result -> {
            synchronized (this) {
                unsent -= size;
            }
        });
    }

    /** Under the lock: the outbox is on its way; its packets count as written when their carrier is. */
    private void outboxSent(Future<Void> carrier) {
        List<Promise<Void>> written = List.copyOf(outboxWritten);
        outboxWritten.clear();
        outbox.clear();
        carrier.onComplete(result -> written.forEach(Promise::tryComplete));
    }

    /** Under the lock. */
    private void flushPoll() {
        if (poll == null || outbox.isEmpty()) {
            return;
        }
        HttpServerResponse parked = poll;
        poll = null;
        outboxSent(parked.end(EnginePackets.join(outbox)));
    }

    /** Under the lock: a parked poll answered with a noop, so that the client can finish its upgrade. */
    private void releasePoll() {
        if (poll != null) {
            HttpServerResponse parked = poll;
            poll = null;
            lastNoopNanos = System.nanoTime();
            parked.end(String.valueOf(EnginePackets.NOOP));
        }
    }

    /** Under the lock, during an upgrade: the poll gets its noop, but not sooner than one interval after the last. */
    private void releaseSoon() {
        long waitMs = NOOP_INTERVAL_MS - (System.nanoTime() - lastNoopNanos) / 1_000_000;
        if (waitMs <= 0) {
            releasePoll();
        } else if (!noopDue) {
            noopDue = true;
            vertx.setTimer(waitMs, ignored -> {
                synchronized (this) {
                    noopDue = false;
                    if (upgrading && !closed) {
                        releasePoll();
                    }
                }
            });
        }
    }

    /** Under the lock: a probe that has not upgraded by the timeout is closed; the session stays on polling. */
    private void endProbeUnlessUpgradedSoon(ServerWebSocket webSocket) {
        vertx.setTimer(settings.upgradeTimeoutMs(), ignored -> {
            synchronized (this) {
                if (probe != webSocket) {
                    return;
                }
                probe = null;
                upgrading = false;
            }
            webSocket.close();
        });
    }

    private void pollConnectionLost(HttpServerResponse response) {
        boolean lost;
        synchronized (this) {
            lost = poll == response;
            if (lost) {
                poll = null;
            }
        }
        if (lost) {
            close("transport error");
        }
    }

    /**
     * A packet for a closed session is ignored: the body of a POST is read after its session may have
     * ended, and the layer above has been told of the end already.
     */
    private void receive(String packet) {
        if (!isOpen()) {
            return;
        }
        if (packet.isEmpty()) {
            close("parse error");
            return;
        }
        Listener current = listener;
        switch (packet.charAt(0)) {
            case EnginePackets.MESSAGE -> current.onMessage(packet.substring(1));
            case EnginePackets.BINARY -> current.onBinary();
            case EnginePackets.PONG -> pong();
            case EnginePackets.CLOSE -> close("transport close");
            case EnginePackets.PING, EnginePackets.NOOP, EnginePackets.UPGRADE -> {
                // v4 clients do not ping; noop and upgrade mean nothing outside the probe
            }
            default -> close("parse error");
        }
    }

    private void listen(ServerWebSocket webSocket) {
        webSocket.textMessageHandler(text -> onWebSocketText(webSocket, text));
        webSocket.binaryMessageHandler(data -> {
            if (isTransport(webSocket)) {
                listener.onBinary();
            }
        });
        webSocket.exceptionHandler(failure -> {
            if (isOverSizeLimit(failure)) {
                close("transport error", MESSAGE_TOO_BIG);
            }
        });
        webSocket.closeHandler(ignored -> onWebSocketClosed(webSocket));
    }

    private synchronized boolean isTransport(ServerWebSocket webSocket) {
        return socket == webSocket;
    }

    private void onWebSocketText(ServerWebSocket webSocket, String text) {
        if (text.length() * 3L > settings.maxPayload()
                && text.getBytes(StandardCharsets.UTF_8).length > settings.maxPayload()) {
            close("transport error", MESSAGE_TOO_BIG);
            return;
        }
        if (isTransport(webSocket)) {
            receive(text);
            return;
        }
        synchronized (this) {
            if (probe != webSocket) {
                return;
            }
            if (text.equals(EnginePackets.PING + EnginePackets.PROBE)) {
                webSocket.writeTextMessage(EnginePackets.PONG + EnginePackets.PROBE);
                upgrading = true;
                releasePoll();
            } else if (upgrading && text.equals(String.valueOf(EnginePackets.UPGRADE))) {
                probe = null;
                upgrading = false;
                socket = webSocket;
                releasePoll();
                Future<Void> last = Future.succeededFuture();
                for (String packet : outbox) {
                    last = webSocket.writeTextMessage(packet);
                }
                outboxSent(last);
            } else {
                probe = null;
                upgrading = false;
                webSocket.close();
            }
        }
    }

    private void onWebSocketClosed(ServerWebSocket webSocket) {
        synchronized (this) {
            if (probe == webSocket) {
                probe = null;
                upgrading = false;
                return;
            }
        }
        if (isTransport(webSocket)) {
            // Polling cannot tell a reload from a lost network; the WebSocket transport can, as /locking does.
            Short code = webSocket.closeStatusCode();
            close("transport close", (short) 1000, code != null && code == GOING_AWAY);
        }
    }

    private void pong() {
        if (heartbeat.pong()) {
            listener.onPong();
        }
    }

    /** Vert.x reports a message over its own limit as "Cannot process ... max message size ...". */
    private static boolean isOverSizeLimit(Throwable failure) {
        return failure instanceof IllegalStateException
                && failure.getMessage() != null
                && failure.getMessage().contains("max message size");
    }
}
