package io.editlock.socketio;

/** What every Engine.IO session is told in its handshake, and held to. */
record EngineSettings(long pingIntervalMs, long pingTimeoutMs, int maxPayload) {

    /** The open packet: {@code 0{"sid", "upgrades", "pingInterval", "pingTimeout", "maxPayload"}}. */
    String openPacket(String sid, boolean mayUpgrade) {
        return EnginePackets.OPEN + "{\"sid\":\"" + sid + "\",\"upgrades\":" + (mayUpgrade ? "[\"websocket\"]" : "[]")
                + ",\"pingInterval\":" + pingIntervalMs + ",\"pingTimeout\":" + pingTimeoutMs + ",\"maxPayload\":"
                + maxPayload + "}";
    }
}
