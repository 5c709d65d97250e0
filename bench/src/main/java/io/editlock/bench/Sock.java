package io.editlock.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.WebSocket;
import java.util.function.Consumer;

/**
 * One WebSocket of the generator, bound to one event loop ({@link #ctx}): every method except
 * {@link #onContext} runs on it. At most one request is in flight; its reply is matched by
 * {@code ref}; frames without a ref (broadcasts) go to {@link #onBroadcast}.
 */
final class Sock {

    /** Called with the reply (or {@link Frame#TIMEOUT}, {@link Frame#CLOSED}) and when the request was sent. */
    interface ReplyHandler {
        void reply(Frame frame, long sentAtNanos, long receivedAtNanos);
    }

    final int index;
    final Context ctx;
    final Users.User user;
    private final Counters counters;

    WebSocket ws;
    /** Frames without a ref: broadcasts (lock-updated, lock-released, ...). */
    Consumer<Frame> onBroadcast = frame -> {};
    /** Per-socket state of a scenario, touched only on {@link #ctx}. */
    boolean locked;

    long configuratorId;
    int seen = -1;

    private volatile String pendingRef;
    private volatile long sentAt;
    private ReplyHandler pendingHandler;
    private long sequence;
    private Promise<Sock> welcome;
    private volatile boolean closing;
    /** Speaks Socket.IO ({@link SocketIoWire}) instead of /locking frames. */
    private boolean socketIo;

    Sock(int index, Context ctx, Users.User user, Counters counters) {
        this.index = index;
        this.ctx = ctx;
        this.user = user;
        this.counters = counters;
    }

    void onContext(Runnable action) {
        ctx.runOnContext(ignored -> action.run());
    }

    /** Sends {@code {"event":event,"data":data,"ref":...}}; data is JSON text. On {@link #ctx} only. */
    void send(String event, String data, ReplyHandler handler) {
        if (ws == null || ws.isClosed()) {
            handler.reply(Frame.CLOSED, System.nanoTime(), System.nanoTime());
            return;
        }
        long id = ++sequence;
        String ref = socketIo ? SocketIoWire.ref(id) : "r" + id;
        pendingHandler = handler;
        sentAt = System.nanoTime();
        pendingRef = ref;
        ws.writeTextMessage(
                socketIo
                        ? SocketIoWire.request(event, data, id)
                        : "{\"event\":\"" + event + "\",\"data\":" + data + ",\"ref\":\"" + ref + "\"}");
    }

    boolean busy() {
        return pendingRef != null;
    }

    /** From any thread: the pending request waits longer than this. */
    boolean overdue(long nowNanos, long timeoutNanos) {
        return pendingRef != null && nowNanos - sentAt > timeoutNanos;
    }

    /** On {@link #ctx}: ends the pending request with a timeout if it is still the same one. */
    void expire(long timeoutNanos) {
        if (overdue(System.nanoTime(), timeoutNanos)) {
            complete(Frame.TIMEOUT);
        }
    }

    void attach(WebSocket socket, Promise<Sock> connected, boolean expectWelcome, boolean overSocketIo) {
        this.ws = socket;
        this.socketIo = overSocketIo;
        socket.textMessageHandler(overSocketIo ? this::onSocketIoText : this::onText);
        socket.exceptionHandler(failure -> {});
        socket.closeHandler(ignored -> {
            if (!closing) {
                counters.unexpectedCloses.increment();
            }
            if (welcome != null) {
                welcome.tryFail("closed before welcome");
            }
            if (pendingRef != null) {
                complete(Frame.CLOSED);
            }
        });
        if (expectWelcome) {
            welcome = connected;
        } else {
            connected.complete(this);
        }
    }

    private void onSocketIoText(String packet) {
        long receivedAt = System.nanoTime();
        if (packet.startsWith("0{")) {
            ws.writeTextMessage(SocketIoWire.CONNECT);
        } else if (packet.equals("2")) {
            ws.writeTextMessage(SocketIoWire.PONG);
        } else {
            Frame frame = SocketIoWire.frame(packet);
            if (frame != null) {
                onFrame(frame, receivedAt);
            }
        }
    }

    private void onText(String text) {
        onFrame(Frame.parse(text), System.nanoTime());
    }

    private void onFrame(Frame frame, long receivedAt) {
        if (frame.ref() != null) {
            if (frame.ref().equals(pendingRef)) {
                complete(frame, receivedAt);
            } else {
                counters.strayReplies.increment();
                counters.error("STRAY_REPLY");
            }
        } else if (welcome != null && "welcome".equals(frame.event())) {
            Promise<Sock> connected = welcome;
            welcome = null;
            connected.tryComplete(this);
        } else {
            onBroadcast.accept(frame);
        }
    }

    private void complete(Frame frame) {
        complete(frame, System.nanoTime());
    }

    private void complete(Frame frame, long receivedAt) {
        ReplyHandler handler = pendingHandler;
        long sent = sentAt;
        pendingHandler = null;
        pendingRef = null;
        if (handler != null) {
            handler.reply(frame, sent, receivedAt);
        }
    }

    /** A clean close (1000): the server releases at once what the socket held. */
    Future<Void> close() {
        closing = true;
        Promise<Void> closed = Promise.promise();
        onContext(() -> {
            if (ws == null || ws.isClosed()) {
                closed.tryComplete();
            } else {
                ws.close((short) 1000).onComplete(ignored -> closed.tryComplete());
            }
        });
        return closed.future();
    }
}
