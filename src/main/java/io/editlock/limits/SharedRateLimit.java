package io.editlock.limits;

import io.editlock.redis.LuaScript;
import io.editlock.redis.ScriptExecutor;
import io.editlock.redis.Scripts;
import io.smallrye.mutiny.Uni;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * A per-user limit in one-second windows, shared by every node. Redis keeps one bounded counter per
 * user and second; a node does not ask it for every request but reserves a block of the user's
 * window (a fifth of the limit) and spends it locally. All nodes together never allow more than the
 * limit; a block one node reserved and did not spend is lost to the user's requests on other nodes
 * for the rest of that second.
 */
public final class SharedRateLimit {

    private static final LuaScript RESERVE = Scripts.RESERVE_LOCK_REQUESTS;
    private static final Uni<Verdict> ALLOWED = Uni.createFrom().item(Verdict.ALLOWED);
    private static final Uni<Verdict> REFUSED = Uni.createFrom().item(Verdict.REFUSED);

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

    public Uni<Verdict> allow(String userId) {
        long window = System.currentTimeMillis() / 1000;
        Allowance allowance = allowances.compute(
                userId, (id, current) -> current == null || current.window != window ? new Allowance(window) : current);
        return allowance.spend(
                () -> scripts.run(RESERVE, List.of(counterKey.apply(userId, window)), List.of(limit, block))
                        .map(reply -> reply.toInteger()));
    }

    /** Call about once a second, so that users who went quiet leave nothing behind. */
    public void forgetPastWindows() {
        long window = System.currentTimeMillis() / 1000;
        allowances.values().removeIf(allowance -> allowance.window < window);
    }

    /**
     * What this node may still allow one user in one window without asking Redis. At most one
     * reservation is in flight per user: requests that find the reserve empty wait for it and then
     * take from what it brought. Were each to reserve on its own, a request whose reservation came
     * back empty would be refused while blocks reserved by the others were still on their way, unspent.
     */
    private static final class Allowance {
        private final long window;
        private int remaining;
        private boolean usedUp;
        private boolean reserving;
        /**
         * The requests that wait for the reservation under way, oldest first: each reads a future of
         * its own (a memoized Uni shared by requests on several event loops can hand its item to one
         * before telling it that it subscribed, and Mutiny then takes that item for another stage's),
         * and they are told in the order they came, so that the first to ask spends first.
         */
        private final Queue<CompletableFuture<Void>> waiting = new ArrayDeque<>();

        Allowance(long window) {
            this.window = window;
        }

        Uni<Verdict> spend(Supplier<Uni<Integer>> reserve) {
            CompletableFuture<Void> mine = new CompletableFuture<>();
            boolean first = false;
            synchronized (this) {
                if (remaining > 0) {
                    remaining--;
                    return ALLOWED;
                }
                if (usedUp) {
                    return REFUSED;
                }
                if (!reserving) {
                    reserving = true;
                    first = true;
                }
                waiting.add(mine);
            }
            if (first) {
                reserve(reserve);
            }
            // A waiter given up (its request timed out) cancels its own future and nobody else's.
            return Uni.createFrom().completionStage(mine).chain(() -> spend(reserve));
        }

        /**
         * Asks Redis for a block; a reservation that fails, even before it is sent, fails every
         * request waiting for it and leaves the allowance free to try again.
         */
        private void reserve(Supplier<Uni<Integer>> reserve) {
            Uni<Integer> reservation;
            try {
                reservation = reserve.get();
            } catch (RuntimeException failure) {
                failed(failure);
                return;
            }
            reservation.subscribe().with(this::reserved, this::failed);
        }

        private void reserved(int granted) {
            synchronized (this) {
                remaining += granted;
                if (granted == 0) {
                    usedUp = true; // the user's window is spent on every node
                }
                reserving = false;
            }
            tellWaiting(null);
        }

        private void failed(Throwable failure) {
            synchronized (this) {
                reserving = false;
            }
            tellWaiting(failure);
        }

        /**
         * Oldest first, each spending as it is told. A request that starts a new reservation meanwhile
         * (the block ran out) waits behind the ones still here, and they wait for that reservation too.
         */
        private void tellWaiting(Throwable failure) {
            List<CompletableFuture<Void>> told;
            synchronized (this) {
                told = new ArrayList<>(waiting);
                waiting.clear();
            }
            for (CompletableFuture<Void> next : told) {
                if (failure == null) {
                    next.complete(null);
                } else {
                    next.completeExceptionally(failure);
                }
            }
        }
    }
}
