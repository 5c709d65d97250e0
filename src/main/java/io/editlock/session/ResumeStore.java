package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.LuaScript;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.ScriptExecutor;
import io.editlock.redis.Scripts;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Resume records in Redis, so that a client can resume on any node, also after its node died. A
 * record is written when a socket first may keep locks, marked dropped when its socket drops (it
 * then lives for the grace period), and claimed by a resume, which spends it when it succeeds and gives
 * it back when it fails.
 */
@ApplicationScoped
public class ResumeStore {

    private static final LuaScript RECORD_LIVE = Scripts.RECORD_LIVE;
    private static final LuaScript CLAIM = Scripts.CLAIM_RESUME;
    private static final LuaScript GIVE_BACK = Scripts.GIVE_BACK_RESUME;
    private static final LuaScript MARK_DROPPED = Scripts.MARK_DROPPED;

    private final PipelinedRedis redis;
    private final SocketPresence presence;
    private final ScriptExecutor scripts;
    private final LockKeys keys;
    private final Duration liveTtl;

    public ResumeStore(
            PipelinedRedis redis,
            SocketPresence presence,
            ScriptExecutor scripts,
            LockKeys keys,
            EditlockConfig config) {
        this.redis = redis;
        this.presence = presence;
        this.scripts = scripts;
        this.keys = keys;
        this.liveTtl = config.lease().ttl().multipliedBy(2);
    }

    /** From the socket's first lock request on, a drop of the socket leaves its locks to a resume. */
    public Uni<Void> recordLive(SocketSession session) {
        return recordLive(
                session.resumeToken(),
                session.socketId(),
                session.identity().userId(),
                session.holder().nodeId());
    }

    public Uni<Void> recordLive(String resumeToken, String socketId, String userId, String nodeId) {
        return scripts.run(
                        RECORD_LIVE,
                        List.of(keys.resume(resumeToken)),
                        List.of(socketId, userId, nodeId, String.valueOf(liveTtl.toMillis())))
                .replaceWithVoid();
    }

    /**
     * While the socket lives its record lives, as long as the leases it keeps. A record that ran out
     * meanwhile (the store was out of reach for longer) is written again: a drop must stay resumable.
     */
    public Uni<Void> refresh(SocketSession session) {
        return redis.execute(Command.PEXPIRE, keys.resume(session.resumeToken()), String.valueOf(liveTtl.toMillis()))
                // Not for a socket that closed meanwhile: its record was deleted (or marked dropped) on purpose.
                .flatMap(reply -> reply != null
                                && reply.toInteger() == 0
                                && session.connection().isOpen()
                        ? recordLive(session)
                        : Uni.createFrom().voidItem());
    }

    /** The socket dropped: its record may be resumed on any node for {@code grace}, unless it is gone. */
    public Uni<Void> markDropped(String resumeToken, Duration grace) {
        return scripts.run(MARK_DROPPED, List.of(keys.resume(resumeToken)), List.of(String.valueOf(grace.toMillis())))
                .replaceWithVoid();
    }

    /** Whether the dropped socket's record still waits for a resume (or one is under way). */
    public Uni<Boolean> awaitsResume(SocketSession session) {
        return redis.execute(Command.EXISTS, keys.resume(session.resumeToken()))
                .map(reply -> reply != null && reply.toInteger() == 1);
    }

    public Uni<Void> forget(SocketSession session) {
        return redis.execute(Command.DEL, keys.resume(session.resumeToken())).replaceWithVoid();
    }

    /**
     * Claims the token for {@code newSocketId}, once: until the resume is done ({@link #resumed}) or
     * given back ({@link #giveBack}), only that socket may claim it again.
     *
     * @return the socket the token belonged to, if this user may resume it now
     */
    public Uni<Optional<String>> claim(String resumeToken, String userId, String newSocketId) {
        String key = keys.resume(resumeToken);
        return redis.execute(Command.HMGET, key, "socketId", "nodeId", "state")
                .flatMap(this::socketGone)
                .flatMap(gone -> scripts.run(CLAIM, List.of(key), List.of(userId, gone ? "1" : "0", newSocketId)))
                .map(reply -> reply == null ? Optional.<String>empty() : Optional.of(reply.toString()));
    }

    /** The resume is done: the token is spent. */
    public Uni<Void> resumed(String resumeToken) {
        return redis.execute(Command.DEL, keys.resume(resumeToken)).replaceWithVoid();
    }

    /** The resume failed: the token is good again, as before the claim (if {@code newSocketId} had claimed it). */
    public Uni<Void> giveBack(String resumeToken, String newSocketId) {
        return scripts.run(GIVE_BACK, List.of(keys.resume(resumeToken)), List.of(newSocketId))
                .replaceWithVoid();
    }

    /** Marked dropped, or its node does not confirm it open (docs/protocol.md §5). */
    private Uni<Boolean> socketGone(Response record) {
        if (record == null || record.get(0) == null || record.get(1) == null) {
            return Uni.createFrom().item(false); // nothing to claim
        }
        if (record.get(2) != null && !"live".equals(record.get(2).toString())) {
            return Uni.createFrom().item(true); // dropped, or being resumed: the claim script decides
        }
        return presence.isOpen(record.get(1).toString(), record.get(0).toString())
                .map(open -> !open);
    }
}
