package io.editlock.limits;

import io.editlock.redis.LuaScript;
import io.editlock.redis.ScriptExecutor;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * A per-user limit in one-second windows, shared by every node. Redis keeps one bounded counter per
 * user and second; a node does not ask it for every request but reserves a block of the user's
 * window (a fifth of the limit) and spends it locally. All nodes together never allow more than the
 * limit; a block one node reserved and did not spend is lost to the user's requests on other nodes
 * for the rest of that second.
 */
public final class SharedRateLimit {

    private static final LuaScript RESERVE = LuaScript.load("reserve_lock_requests");
    private static final Uni<Boolean> ALLOWED = Uni.createFrom().item(true);
    private static final Uni<Boolean> REFUSED = Uni.createFrom().item(false);

    private final ScriptExecutor scripts;
    private final BiFunction<String, Long, String> counterKey;
    private final String limit;
    private final String block;
    /** This node's allowance of the current window, per user; past windows are dropped by {@link #forgetPastWindows}. */
    private final Map<String, Allowance> allowances = new ConcurrentHashMap<>();

    /** @param counterKey the Redis key of one user's counter in one window (user id, epoch second) */
    public SharedRateLimit(ScriptExecutor scripts, BiFunction<String, Long, String> counterKey, int perSecond) {
        this.scripts = scripts;
        this.counterKey = counterKey;
        this.limit = String.valueOf(perSecond);
        this.block = String.valueOf(Math.max(1, perSecond / 5));
    }

    public Uni<Boolean> allow(String userId) {
        long window = System.currentTimeMillis() / 1000;
        Allowance allowance = allowances.compute(userId,
                (id, current) -> current == null || current.window != window ? new Allowance(window) : current);
        Boolean local = allowance.spend();
        if (local != null) {
            return local ? ALLOWED : REFUSED;
        }
        return scripts.run(RESERVE, List.of(counterKey.apply(userId, window)), List.of(limit, block))
                .map(reply -> allowance.reserved(reply.toInteger()));
    }

    /** Call about once a second, so that users who went quiet leave nothing behind. */
    public void forgetPastWindows() {
        long window = System.currentTimeMillis() / 1000;
        allowances.values().removeIf(allowance -> allowance.window < window);
    }

    /** What this node may still allow one user in one window without asking Redis. */
    private static final class Allowance {
        private final long window;
        private int remaining;
        private boolean usedUp;

        Allowance(long window) {
            this.window = window;
        }

        /** @return true (allowed from the reserve), false (the window is used up), null (ask Redis) */
        synchronized Boolean spend() {
            if (remaining > 0) {
                remaining--;
                return true;
            }
            return usedUp ? false : null;
        }

        /**
         * Requests that found the reserve empty at the same time each reserve a block; whatever they
         * got goes into the reserve, and each takes one from it while any is left.
         */
        synchronized boolean reserved(int granted) {
            remaining += granted;
            if (remaining > 0) {
                remaining--;
                return true;
            }
            usedUp = true;
            return false;
        }
    }
}
