package io.editlock.socketio;

import io.editlock.session.ClientConnection;
import io.editlock.session.SessionLifecycle;
import io.editlock.session.SocketSession;
import io.quarkus.websockets.next.CloseReason;
import io.smallrye.mutiny.Uni;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * A Socket.IO socket on {@code /locking}: to the session model the same kind of client as a
 * {@code /locking} WebSocket. Server events go out as Socket.IO events; its requests are handled one
 * after another, so that its replies keep the order of its requests, as on {@code /locking}.
 */
final class NamespaceSocket implements ClientConnection {

    static final String TRANSPORT = "socketio";

    private static final Logger LOG = Logger.getLogger(NamespaceSocket.class);
    private static volatile Translation lastTranslation;
    /** Requests one socket may have waiting; a polling body of maxPayload holds at most a few hundred. */
    private static final int MAX_QUEUED = 1024;
    private static final int RUNNING = 0;
    private static final int DONE_AT_ONCE = 1;
    private static final int WAITING = 2;

    private final String id = UUID.randomUUID().toString();
    private final EngineSession engine;
    private final SessionLifecycle lifecycle;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final Queue<Supplier<Uni<Void>>> requests = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean busy = new AtomicBoolean();
    private final AtomicInteger queued = new AtomicInteger();
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

    @Override
    public boolean isOpen() {
        return !ended.get() && engine.isOpen();
    }

    @Override
    public Uni<Void> sendText(String frame) {
        if (isOpen()) {
            engine.sendMessage(eventPacket(frame));
        }
        return Uni.createFrom().voidItem();
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
        String packet = SocketIoPacket.encode(SocketIoPacket.EVENT, LockingNamespace.NAME, null, SocketIoFrames.eventArguments(frame));
        lastTranslation = new Translation(frame, packet);
        return packet;
    }

    private record Translation(String frame, String packet) {
    }

    /** The server ends it by ending its Engine.IO session: the client reconnects by itself, as after any lost transport. */
    @Override
    public Uni<Void> close(CloseReason reason) {
        engine.close("forced close");
        return Uni.createFrom().voidItem();
    }

    /** The direct reply to a request: as its acknowledgement if it asked for one, else as an event. */
    void reply(Long ackId, String frame) {
        if (ackId == null) {
            sendText(frame);
        } else if (isOpen()) {
            engine.sendMessage(SocketIoPacket.encode(SocketIoPacket.ACK, LockingNamespace.NAME, ackId, SocketIoFrames.ackArguments(frame)));
        }
    }

    /**
     * Queues a request behind the ones before it. A client that keeps sending faster than it is
     * answered is cut off (a drop) before the queue grows without bound.
     */
    void enqueue(Supplier<Uni<Void>> request) {
        if (queued.incrementAndGet() > MAX_QUEUED) {
            LOG.debugf("Socket.IO socket %s has %d requests waiting: dropped", id, MAX_QUEUED);
            engine.close("transport error");
            return;
        }
        requests.add(request);
        drain();
    }

    /**
     * Runs the queued requests one at a time. A request answered at once (a bad one, a touch) is
     * followed in this loop rather than from its callback, so that a long burst does not nest.
     */
    private void drain() {
        while (busy.compareAndSet(false, true)) {
            Supplier<Uni<Void>> next = requests.poll();
            if (next != null) {
                queued.decrementAndGet();
            }
            if (next == null) {
                busy.set(false);
                if (requests.isEmpty()) {
                    return;
                }
                continue;
            }
            AtomicInteger state = new AtomicInteger(RUNNING);
            start(next).subscribe().with(ignored -> finished(state), failure -> finished(state));
            if (state.compareAndSet(RUNNING, WAITING)) {
                return; // finished() takes over when the reply comes
            }
            busy.set(false);
        }
    }

    private void finished(AtomicInteger state) {
        if (!state.compareAndSet(RUNNING, DONE_AT_ONCE)) {
            busy.set(false);
            drain();
        }
    }

    private Uni<Void> start(Supplier<Uni<Void>> request) {
        try {
            return request.get();
        } catch (RuntimeException e) {
            LOG.errorf(e, "unexpected failure on Socket.IO socket %s", id);
            return Uni.createFrom().voidItem();
        }
    }

    /**
     * The socket is over: {@code clean} after the client's disconnect (its locks are released at
     * once), otherwise a drop that waits out the grace period for a resume (docs/protocol.md §5).
     */
    void end(boolean clean) {
        if (ended.compareAndSet(false, true) && session != null) {
            lifecycle.closed(session, clean ? CloseReason.NORMAL : CloseReason.ABNORMAL)
                    .subscribe().with(ignored -> { }, failure -> LOG.debugf("closing %s failed: %s", id, failure.getMessage()));
        }
    }
}
