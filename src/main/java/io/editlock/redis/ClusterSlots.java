package io.editlock.redis;

import java.nio.charset.StandardCharsets;

/**
 * The Redis Cluster slot of a key, computed as Redis computes it: CRC16 (XMODEM) of the key, or of
 * its hash tag (the text between the first {@code {}} and the next {@code }}, when not empty),
 * modulo 16384.
 */
final class ClusterSlots {

    static final int COUNT = 16384;

    private ClusterSlots() {}

    static int of(String key) {
        int open = key.indexOf('{');
        if (open >= 0) {
            int close = key.indexOf('}', open + 1);
            if (close > open + 1) {
                key = key.substring(open + 1, close);
            }
        }
        return crc16(key.getBytes(StandardCharsets.UTF_8)) % COUNT;
    }

    private static int crc16(byte[] bytes) {
        int crc = 0;
        for (byte b : bytes) {
            crc ^= (b & 0xFF) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            crc &= 0xFFFF;
        }
        return crc;
    }
}
