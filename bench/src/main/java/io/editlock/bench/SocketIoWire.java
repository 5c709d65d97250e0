package io.editlock.bench;

/**
 * The generator's side of Socket.IO over a WebSocket (docs/protocol.md §12), only what the lock loop
 * needs: the connect to {@code /locking}, requests as events with an ack id, acks and events turned
 * back into the {@link Frame}s the loops already read, and the answer to the server's pings.
 */
final class SocketIoWire {

    /** The Engine.IO handshake of a WebSocket-only client. */
    static final String PATH = "/socket.io/?EIO=4&transport=websocket";
    /** Identity comes from the handshake's Authorization header, so the connect carries no auth. */
    static final String CONNECT = "40/locking,";

    static final String PONG = "3";

    private static final String ACK = "43/locking,";
    private static final String EVENT = "42/locking,[\"";

    private SocketIoWire() {}

    static String request(String event, String data, long ackId) {
        return "42/locking," + ackId + "[\"" + event + "\"," + data + "]";
    }

    /** The ack id a reply names as its ref, so that the loops match it as they match /locking replies. */
    static String ref(long ackId) {
        return "r" + ackId;
    }

    /** @return the frame in a server packet, or null for packets without one (open, connect, ping) */
    static Frame frame(String packet) {
        if (packet.startsWith(ACK)) {
            int bracket = packet.indexOf('[', ACK.length());
            Frame reply = Frame.parse(packet.substring(bracket + 1, packet.length() - 1));
            return new Frame(
                    reply.event(),
                    ref(Long.parseLong(packet.substring(ACK.length(), bracket))),
                    reply.hasLocks(),
                    reply.code());
        }
        if (packet.startsWith(EVENT)) {
            int nameEnd = packet.indexOf('"', EVENT.length());
            return Frame.parse("{\"event\":\"" + packet.substring(EVENT.length(), nameEnd) + "\",\"data\":"
                    + packet.substring(nameEnd + 2, packet.length() - 1) + "}");
        }
        return null;
    }
}
