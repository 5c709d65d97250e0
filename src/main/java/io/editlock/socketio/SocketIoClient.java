package io.editlock.socketio;

/**
 * The Socket.IO side of one Engine.IO session: which packets go where. Only {@code /locking} exists;
 * a connect to any other namespace gets a connect_error, and other packets for it are dropped, as
 * Socket.IO servers do.
 */
final class SocketIoClient implements EngineSession.Listener {

    private static final String INVALID_NAMESPACE = "{\"message\":\"Invalid namespace\"}";

    private final EngineSession engine;
    private final LockingNamespace namespace;
    private volatile NamespaceSocket socket;

    SocketIoClient(EngineSession engine, LockingNamespace namespace) {
        this.engine = engine;
        this.namespace = namespace;
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
        NamespaceSocket current = socket;
        if (current != null && current.session() != null) {
            current.session().markPong(); // any packet shows the peer is alive, as a pong does
        }
        switch (packet.type()) {
            case SocketIoPacket.CONNECT -> {
                if (current == null) {
                    socket = namespace.connect(engine, packet.payload());
                } else {
                    namespace.acknowledgeConnect(engine, current);
                }
            }
            case SocketIoPacket.DISCONNECT -> {
                if (current != null) {
                    socket = null;
                    current.end(true);
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

    /** Attachments of a binary packet, which was answered BAD_REQUEST already. */
    @Override
    public void onBinary() {}

    @Override
    public void onPong() {
        NamespaceSocket current = socket;
        if (current != null && current.session() != null) {
            current.session().markPong();
        }
    }

    @Override
    public void onClose(String reason) {
        NamespaceSocket current = socket;
        socket = null;
        if (current != null) {
            current.end(false);
        }
    }
}
