package io.editlock.socketio;

/**
 * What every Engine.IO session is told in its handshake, and held to.
 *
 * @param connectTimeoutMs how long a session may stay open with no Socket.IO socket connected on it
 * @param upgradeTimeoutMs how long an upgrade may take from the probe to the upgrade packet
 * @param maxUnsentBytes what a session may have waiting to be written out before it is closed: the
 *     sockets' own limit (docs/protocol.md §4) plus one packet, so that it bounds what the engine holds
 *     before any socket connected, and never cuts off a socket that the socket's limit lets through
 */
record EngineSettings(
        long pingIntervalMs,
        long pingTimeoutMs,
        int maxPayload,
        long connectTimeoutMs,
        long upgradeTimeoutMs,
        long maxUnsentBytes) {

    /** The open packet: {@code 0{"sid", "upgrades", "pingInterval", "pingTimeout", "maxPayload"}}. */
    String openPacket(String sid, boolean mayUpgrade) {
        return EnginePackets.OPEN + "{\"sid\":\"" + sid + "\",\"upgrades\":" + (mayUpgrade ? "[\"websocket\"]" : "[]")
                + ",\"pingInterval\":" + pingIntervalMs + ",\"pingTimeout\":" + pingTimeoutMs + ",\"maxPayload\":"
                + maxPayload + "}";
    }
}
