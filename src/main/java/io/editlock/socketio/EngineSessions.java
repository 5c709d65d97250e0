package io.editlock.socketio;

import io.editlock.config.EditlockConfig;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The Engine.IO sessions of this node, by sid. Polling needs every request of a session on this node (sticky). */
@ApplicationScoped
class EngineSessions {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, EngineSession> bySid = new ConcurrentHashMap<>();
    private final EngineSettings settings;
    private final Vertx vertx;

    EngineSessions(EditlockConfig config, Vertx vertx) {
        this.settings = new EngineSettings(
                config.socketio().pingInterval().toMillis(),
                config.socketio().pingTimeout().toMillis(),
                config.websocket().maxFrameBytes(),
                config.socketio().connectTimeout().toMillis(),
                config.socketio().upgradeTimeout().toMillis(),
                config.limits().maxUnsentBytes() + config.websocket().maxFrameBytes());
        this.vertx = vertx;
    }

    EngineSettings settings() {
        return settings;
    }

    EngineSession create(Handshake handshake) {
        byte[] secret = new byte[15];
        RANDOM.nextBytes(secret);
        String sid = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        EngineSession session = new EngineSession(sid, handshake, settings, vertx, ended -> bySid.remove(ended.sid()));
        bySid.put(sid, session);
        return session;
    }

    /** Sessions this node holds now, connected or not. */
    int count() {
        return bySid.size();
    }

    Optional<EngineSession> find(String sid) {
        return Optional.ofNullable(bySid.get(sid));
    }
}
