package io.editlock.socketio;

import io.quarkus.websockets.next.CloseReason;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * The Socket.IO side of one Engine.IO session: which packets go where. Only {@code /locking} exists;
 * a connect to any other namespace gets a connect_error, and other packets for it are dropped, as
 * Socket.IO servers do.
 */
final class SocketIoClient implements EngineSession.Listener {

    private static final String INVALID_NAMESPACE = "{\"message\":\"Invalid namespace\"}";
    /** The close of a /locking socket whose page went away, which a WebSocket transport's 1001 is too. */
    private static final CloseReason PAGE_GONE = new CloseReason(1001);
    /** No socket: before the first CONNECT, after a refused one, after the client's DISCONNECT. */
    private static final Object NONE = new Object();
    /** A CONNECT is being decided. */
    private static final Object CONNECTING = new Object();
    /** The engine closed: no socket opens any more. */
    private static final Object CLOSED = new Object();

    private static final AtomicReferenceFieldUpdater<SocketIoClient, Object> STATE =
            AtomicReferenceFieldUpdater.newUpdater(SocketIoClient.class, Object.class, "state");

    private final EngineSession engine;
    private final LockingNamespace namespace;
    private final UnconnectedSessions.Place place;
    /**
     * One of the markers above, or the open {@link NamespaceSocket}. Packets of one session may come
     * on several event loops at once (two POSTs), and the engine's close on yet another.
     */
    private volatile Object state = NONE;

    SocketIoClient(EngineSession engine, LockingNamespace namespace, UnconnectedSessions.Place place) {
        this.engine = engine;
        this.namespace = namespace;
        this.place = place;
    }

    @Override
    public void onMessage(String text) {
        SocketIoPacket packet;
        try {
            packet = SocketIoPacket.parse(text);
        } catch (IllegalArgumentException e) {
            engine.close("parse error");
            return;
        }
        if (!LockingNamespace.NAME.equals(packet.namespace())) {
            if (packet.type() == SocketIoPacket.CONNECT) {
                engine.sendMessage(SocketIoPacket.encode(
                        SocketIoPacket.CONNECT_ERROR, packet.namespace(), null, INVALID_NAMESPACE));
            }
            return;
        }
        NamespaceSocket current = socket();
        if (current != null && current.session() != null) {
            current.session().markPong(); // any packet shows the peer is alive, as a pong does
        }
        switch (packet.type()) {
            case SocketIoPacket.CONNECT -> connect(packet.payload());
            case SocketIoPacket.DISCONNECT -> {
                if (current != null && disconnected(current)) {
                    current.end(CloseReason.NORMAL);
                    engine.closeUnlessConnectedSoon();
                }
            }
            case SocketIoPacket.EVENT, SocketIoPacket.BINARY_EVENT -> {
                if (current != null) {
                    namespace.event(current, packet);
                }
            }
            default -> {
                // acks and connect errors from a client answer nothing the server asked
            }
        }
    }

    /**
     * Only one CONNECT opens a socket. One that comes while another is being decided is not answered:
     * the client gets that one's answer. A socket whose engine closed while it opened is ended at
     * once, as the engine's close found no socket to end.
     */
    private void connect(String payload) {
        Object now = state;
        if (now instanceof NamespaceSocket open) {
            namespace.acknowledgeConnect(engine, open);
            return;
        }
        if (now != NONE || !STATE.compareAndSet(this, NONE, CONNECTING)) {
            return;
        }
        NamespaceSocket opened = namespace.connect(engine, payload);
        if (opened == null) {
            // The session's connect timeout still runs: a refused CONNECT does not put it off.
            STATE.compareAndSet(this, CONNECTING, NONE);
            return;
        }
        // Before the socket can be seen: a DISCONNECT that finds it counts the session again after this.
        place.connected();
        if (STATE.compareAndSet(this, CONNECTING, opened)) {
            namespace.greet(engine, opened);
        } else {
            opened.end(CloseReason.ABNORMAL);
        }
    }

    /**
     * The session counts as unconnected again in the same step as its socket goes: a CONNECT on another
     * thread that finds no socket then gives the place back after this, never before it (which would leave a
     * connected session counted for its whole life).
     */
    private boolean disconnected(NamespaceSocket current) {
        synchronized (place) {
            if (!STATE.compareAndSet(this, current, NONE)) {
                return false;
            }
            place.disconnected();
            return true;
        }
    }

    private NamespaceSocket socket() {
        return state instanceof NamespaceSocket open ? open : null;
    }

    /** Attachments of a binary packet, which was answered BAD_REQUEST already. */
    @Override
    public void onBinary() {}

    @Override
    public void onPong() {
        NamespaceSocket current = socket();
        if (current != null && current.session() != null) {
            current.session().markPong();
        }
    }

    @Override
    public boolean connected() {
        return state instanceof NamespaceSocket;
    }

    @Override
    public void onClose(String reason, boolean pageGone) {
        place.ended();
        if (STATE.getAndSet(this, CLOSED) instanceof NamespaceSocket current) {
            current.end(pageGone ? PAGE_GONE : CloseReason.ABNORMAL);
        }
    }
}
