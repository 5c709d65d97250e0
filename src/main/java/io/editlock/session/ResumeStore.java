package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.LuaScript;
import io.editlock.redis.ScriptExecutor;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Resume records in Redis, so that a client can resume on any node, also after its node died. A
 * record is written when a socket first may keep locks, marked dropped when its socket drops (it
 * then lives for the grace period), and taken once by a resume.
 */
@ApplicationScoped
public class ResumeStore {

    private static final LuaScript CLAIM = LuaScript.load("claim_resume");

    private final ReactiveRedisDataSource redis;
    private final ScriptExecutor scripts;
    private final LockKeys keys;
    private final Duration liveTtl;

    public ResumeStore(ReactiveRedisDataSource redis, ScriptExecutor scripts, LockKeys keys, EditlockConfig config) {
        this.redis = redis;
        this.scripts = scripts;
        this.keys = keys;
        this.liveTtl = config.lease().ttl().multipliedBy(2);
    }

    public Uni<Void> recordLive(SocketSession session, String nodeId) {
        String key = keys.resume(session.resumeToken());
        return redis.execute(Command.HSET, key, "socketId", session.socketId(), "userId", session.identity().userId(),
                        "nodeId", nodeId, "state", "live")
                .chain(() -> refresh(session))
                .replaceWithVoid();
    }

    /** While the socket lives its record lives, as long as the leases it keeps. */
    public Uni<Void> refresh(SocketSession session) {
        return redis.execute(Command.PEXPIRE, keys.resume(session.resumeToken()), String.valueOf(liveTtl.toMillis()))
                .replaceWithVoid();
    }

    public Uni<Void> markDropped(SocketSession session, Duration grace) {
        String key = keys.resume(session.resumeToken());
        return redis.execute(Command.HSET, key, "state", "dropped")
                .chain(() -> redis.execute(Command.PEXPIRE, key, String.valueOf(grace.toMillis())))
                .replaceWithVoid();
    }

    public Uni<Void> forget(SocketSession session) {
        return redis.execute(Command.DEL, keys.resume(session.resumeToken())).replaceWithVoid();
    }

    /** @return the socket the token belonged to, if this user may resume it now (once) */
    public Uni<Optional<String>> claim(String resumeToken, String userId) {
        String key = keys.resume(resumeToken);
        return redis.execute(Command.HGET, key, "nodeId")
                .flatMap(node -> node == null ? Uni.createFrom().item(Boolean.FALSE) : nodeIsDead(node.toString()))
                .flatMap(nodeDead -> scripts.run(CLAIM, List.of(key), List.of(userId, nodeDead ? "1" : "0")))
                .map(reply -> reply == null ? Optional.<String>empty() : Optional.of(reply.toString()));
    }

    private Uni<Boolean> nodeIsDead(String nodeId) {
        return redis.execute(Command.EXISTS, keys.nodeAlive(nodeId)).map(reply -> reply.toInteger() == 0);
    }
}
