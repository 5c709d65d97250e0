package io.editlock.socketio;

import java.util.ArrayList;
import java.util.List;

/**
 * Engine.IO v4 packets as text: one type digit, then the payload. A polling body carries several,
 * separated by the record separator; a binary packet in a polling body starts with {@code b}.
 */
final class EnginePackets {

    static final char OPEN = '0';
    static final char CLOSE = '1';
    static final char PING = '2';
    static final char PONG = '3';
    static final char MESSAGE = '4';
    static final char UPGRADE = '5';
    static final char NOOP = '6';
    static final char BINARY = 'b';
    static final char SEPARATOR = '\u001e';

    static final String PROBE = "probe";

    private EnginePackets() {}

    static List<String> split(String payload) {
        List<String> packets = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= payload.length(); i++) {
            if (i == payload.length() || payload.charAt(i) == SEPARATOR) {
                packets.add(payload.substring(start, i));
                start = i + 1;
            }
        }
        return packets;
    }

    static String join(List<String> packets) {
        return String.join(String.valueOf(SEPARATOR), packets);
    }
}
