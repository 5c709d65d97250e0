package io.editlock.socketio;

/**
 * One Socket.IO v5 packet, as the text after the Engine.IO message type:
 * {@code <type>[<attachments>-][<namespace>,][<ackId>][<json>]}. The main namespace {@code /} has no
 * namespace part.
 *
 * @param ackId null when the sender wants no acknowledgement
 * @param payload the JSON text, empty when there is none
 */
record SocketIoPacket(int type, String namespace, Long ackId, String payload) {

    static final int CONNECT = 0;
    static final int DISCONNECT = 1;
    static final int EVENT = 2;
    static final int ACK = 3;
    static final int CONNECT_ERROR = 4;
    static final int BINARY_EVENT = 5;
    static final int BINARY_ACK = 6;

    private static final int MAX_ACK_DIGITS = 15;

    /** @throws IllegalArgumentException when the text is no Socket.IO packet */
    static SocketIoPacket parse(String text) {
        if (text.isEmpty() || text.charAt(0) < '0' || text.charAt(0) > '6') {
            throw new IllegalArgumentException("unknown packet type");
        }
        int type = text.charAt(0) - '0';
        int i = 1;
        if (type == BINARY_EVENT || type == BINARY_ACK) {
            int dash = text.indexOf('-', i);
            if (dash < 0 || !isDigits(text, i, dash)) {
                throw new IllegalArgumentException("binary packet without an attachment count");
            }
            i = dash + 1;
        }
        String namespace = "/";
        if (i < text.length() && text.charAt(i) == '/') {
            int comma = text.indexOf(',', i);
            int end = comma < 0 ? text.length() : comma;
            namespace = text.substring(i, end);
            i = comma < 0 ? end : end + 1;
        }
        int digits = i;
        while (digits < text.length() && Character.isDigit(text.charAt(digits))) {
            digits++;
        }
        Long ackId = null;
        if (digits > i) {
            if (digits - i > MAX_ACK_DIGITS) {
                throw new IllegalArgumentException("ack id too long");
            }
            ackId = Long.parseLong(text.substring(i, digits));
        }
        return new SocketIoPacket(type, namespace, ackId, text.substring(digits));
    }

    private static boolean isDigits(String text, int from, int to) {
        if (from == to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The text of a packet to send: {@code <type><namespace>,[<ackId>]<payload>}. */
    static String encode(int type, String namespace, Long ackId, String payload) {
        StringBuilder text = new StringBuilder(payload.length() + namespace.length() + 16).append(type);
        if (!namespace.equals("/")) {
            text.append(namespace).append(',');
        }
        if (ackId != null) {
            text.append(ackId);
        }
        return text.append(payload).toString();
    }
}
