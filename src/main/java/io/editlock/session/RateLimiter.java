package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.redis.LockKeys;
import io.editlock.redis.LuaScript;
import io.editlock.redis.ScriptExecutor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Per-user limit on lock requests, shared by every node: one bounded counter per user and second. */
@ApplicationScoped
public class RateLimiter {

    private static final LuaScript COUNT = LuaScript.load("count_lock_request");

    private final ScriptExecutor scripts;
    private final LockKeys keys;
    private final String limit;

    public RateLimiter(ScriptExecutor scripts, LockKeys keys, EditlockConfig config) {
        this.scripts = scripts;
        this.keys = keys;
        this.limit = String.valueOf(config.rateLimit().lockRequestsPerSecond());
    }

    public Uni<Boolean> allowLockRequest(String userId) {
        String key = keys.lockRequestRate(userId, System.currentTimeMillis() / 1000);
        return scripts.run(COUNT, List.of(key), List.of(limit)).map(reply -> reply.toInteger() == 1);
    }
}
