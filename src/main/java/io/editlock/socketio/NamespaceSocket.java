package io.editlock.socketio;

import io.editlock.protocol.CloseReasons;
import io.editlock.session.ClientConnection;
import io.editlock.session.SessionLifecycle;
import io.editlock.session.SocketSession;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.UserData;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * A Socket.IO socket on {@code /locking}: to the session model the same kind of client as a
 * {@code /locking} WebSocket. Server events go out as Socket.IO events; its requests are handled one
 * after another ({@link SerialRequests}).
 */
final class NamespaceSocket implements ClientConnection {

    static final String TRANSPORT = "socketio";

    private static final Logger LOG = Logger.getLogger(NamespaceSocket.class);
    private static volatile Translation lastTranslation;
    /** Requests one socket may have waiting; one polling body of maxPayload holds under a thousand. */
    private static final int MAX_QUEUED = 1024;

    private final String id = UUID.randomUUID().toString();
    private final EngineSession engine;
    private final SessionLifecycle lifecycle;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final SerialRequests requests = new SerialRequests(MAX_QUEUED);
    private final SocketUserData userData = new SocketUserData();
    private volatile SocketSession session;

    NamespaceSocket(EngineSession engine, SessionLifecycle lifecycle) {
        this.engine = engine;
        this.lifecycle = lifecycle;
    }

    void session(SocketSession value) {
        session = value;
    }

    SocketSession session() {
        return session;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String transport() {
        return TRANSPORT;
    }

    /** Engine.IO's heartbeat holds the client to the pingTimeout it was told, not the sweep's ping timeout. */
    @Override
    public boolean hasOwnHeartbeat() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return !ended.get() && engine.isOpen();
    }

    @Override
    public UserData userData() {
        return userData;
    }

    /** Completes when the event is written out, so that what a client does not read counts towards its limit (§4). */
    @Override
    public Uni<Void> sendText(String frame) {
        if (!isOpen()) {
            return Uni.createFrom().voidItem();
        }
        Future<Void> written = engine.sendMessage(eventPacket(frame));
        return Uni.createFrom()
                .emitter(emitter -> written.onComplete(result -> {
                    if (result.succeeded()) {
                        emitter.complete(null);
                    } else {
                        emitter.fail(result.cause());
                    }
                }));
    }

    /**
     * A broadcast hands the same frame to every watcher: translated once for all of them, as the
     * relays serialize it once (the last translation is kept; fan-outs of one frame come together).
     */
    private static String eventPacket(String frame) {
        Translation last = lastTranslation;
        if (last != null && last.frame() == frame) {
            return last.packet();
        }
        String packet = SocketIoPacket.encode(
                SocketIoPacket.EVENT, LockingNamespace.NAME, null, SocketIoFrames.eventArguments(frame));
        lastTranslation = new Translation(frame, packet);
        return packet;
    }

    private record Translation(String frame, String packet) {}

    /**
     * The server ends it by ending its Engine.IO session: the client reconnects by itself, as after the
     * transport closed.
     */
    @Override
    public Uni<Void> close(CloseReason reason) {
        // What a client too slow to read has not read is not kept for it, not even for a last poll.
        engine.closeByServer(!CloseReasons.TOO_SLOW.equals(reason));
        return Uni.createFrom().voidItem();
    }

    /** The direct reply to a request: as its acknowledgement if it asked for one, else as an event. */
    void reply(Long ackId, String frame) {
        if (frame == null) {
            return;
        }
        if (ackId == null) {
            sendText(frame);
        } else if (isOpen()) {
            engine.sendMessage(SocketIoPacket.encode(
                    SocketIoPacket.ACK, LockingNamespace.NAME, ackId, SocketIoFrames.ackArguments(frame)));
        }
    }

    /**
     * Queues a request behind the ones before it. A client that keeps sending faster than it is
     * answered is cut off (a drop) before the queue grows without bound.
     */
    void enqueue(Supplier<Uni<Void>> request) {
        if (!requests.offer(request)) {
            LOG.debugf("Socket.IO socket %s has %d requests waiting: dropped", id, MAX_QUEUED);
            engine.close("transport error");
        }
    }

    /**
     * The socket is over, {@code how} as a /locking socket's close would say (docs/protocol.md §5):
     * {@link CloseReason#NORMAL} after the client's disconnect (its locks are released at once), 1001
     * when the page went away (the reload grace), otherwise a drop that waits out the grace period
     * for a resume. Requests still waiting get no reply; the one in flight finishes first, so that a
     * grant or a resume it is making belongs to what the end releases or keeps, not to a socket
     * nobody renews.
     */
    void end(CloseReason how) {
        if (ended.compareAndSet(false, true) && session != null) {
            requests.end(() -> lifecycle
                    .closed(session, how)
                    .subscribe()
                    .with(ignored -> {}, failure -> LOG.debugf("closing %s failed: %s", id, failure.getMessage())));
        }
    }
}
