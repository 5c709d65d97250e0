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
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A per-user limit in one-second windows, shared by every node. Redis keeps one bounded counter per
 * user and second; a node does not ask it for every request but reserves a block of the user's
 * window (a fifth of the limit) and spends it locally. All nodes together never allow more than the
 * limit; a block one node reserved and did not spend is lost to the user's requests on other nodes
 * for the rest of that second. The seconds are Redis's, as this node reads its clock: nodes whose own
 * clocks disagree still count a user's requests in the same windows.
 */
public final class SharedRateLimit {

    private static final LuaScript RESERVE = Scripts.RESERVE_LOCK_REQUESTS;
    private static final Uni<Verdict> ALLOWED = Uni.createFrom().item(Verdict.ALLOWED);
    private static final Uni<Verdict> REFUSED = Uni.createFrom().item(Verdict.REFUSED);

    private final ScriptExecutor scripts;
    private final BiFunction<String, Long, String> counterKey;
    private final LongSupplier storeMillis;
    private final int perSecond;
    private final String limit;
    private final String block;
    /** Told of every request this limit refuses (the limit's metric). */
    private final Runnable refused;
    /** This node's allowance of the current window, per user; past windows are dropped by {@link #forgetPastWindows}. */
    private final Map<String, Allowance> allowances = new ConcurrentHashMap<>();

    /**
     * @param counterKey the Redis key of one user's counter in one window (user id, epoch second)
     * @param storeMillis now on Redis's clock, in epoch milliseconds ({@code StoreClock::nowMillis})
     */
    public SharedRateLimit(
            ScriptExecutor scripts,
            BiFunction<String, Long, String> counterKey,
            int perSecond,
            LongSupplier storeMillis) {
        this(scripts, counterKey, perSecond, storeMillis, () -> {});
    }

    /** @param refused told of every request refused */
    public SharedRateLimit(
            ScriptExecutor scripts,
            BiFunction<String, Long, String> counterKey,
            int perSecond,
            LongSupplier storeMillis,
            Runnable refused) {
        this.scripts = scripts;
        this.counterKey = counterKey;
        this.storeMillis = storeMillis;
        this.perSecond = perSecond;
        this.limit = String.valueOf(perSecond);
        this.block = String.valueOf(Math.max(1, perSecond / 5));
        this.refused = refused;
    }

    public Uni<Verdict> allow(String userId) {
        long window = storeMillis.getAsLong() / 1000;
        Allowance allowance = allowances.compute(
                userId, (id, current) -> current == null || current.window != window ? new Allowance(window) : current);
        return allowance
                .spend(() -> scripts.run(RESERVE, List.of(counterKey.apply(userId, window)), List.of(limit, block))
                        .map(reply -> reply.toInteger()))
                .invoke(verdict -> {
                    if (verdict == Verdict.REFUSED) {
                        refused.run();
                    }
                });
    }

    /** What this limit allows a user a second, over all nodes. */
    public int perSecond() {
        return perSecond;
    }

    /** Call about once a second, so that users who went quiet leave nothing behind. */
    public void forgetPastWindows() {
        long window = storeMillis.getAsLong() / 1000;
        allowances.values().removeIf(allowance -> allowance.window < window);
    }

    /**
     * What this node may still allow one user in one window without asking Redis. At most one
     * reservation is in flight per user: requests that find the reserve empty wait for it and then
     * take from what it brought. Were each to reserve on its own, a request whose reservation came
     * back empty would be refused while blocks reserved by the others were still on their way, unspent.
     *
     * <p>Every verdict is decided under the allowance's lock, in the order the requests came: a
     * request that finds others waiting queues behind them even if the reserve is not empty, so that
     * one arriving from another event loop while a reservation is being handed out cannot take what
     * the ones before it were waiting for. The waiters' futures are completed outside the lock.
     */
    private static final class Allowance {
        private final long window;
        private int remaining;
        private boolean usedUp;
        private boolean reserving;
        /**
         * The requests waiting for a reservation, oldest first. Each reads a future of its own: a
         * memoized Uni shared by requests on several event loops can hand its item to one before
         * telling it that it subscribed, and Mutiny then takes that item for another stage's.
         */
        private final Queue<CompletableFuture<Verdict>> waiting = new ArrayDeque<>();

        Allowance(long window) {
            this.window = window;
        }

        Uni<Verdict> spend(Supplier<Uni<Integer>> reserve) {
            CompletableFuture<Verdict> mine = new CompletableFuture<>();
            boolean startReserving = false;
            synchronized (this) {
                if (waiting.isEmpty()) {
                    if (remaining > 0) {
                        remaining--;
                        return ALLOWED;
                    }
                    if (usedUp) {
                        return REFUSED;
                    }
                }
                waiting.add(mine);
                if (!reserving) {
                    reserving = true;
                    startReserving = true;
                }
            }
            if (startReserving) {
                reserve(reserve);
            }
            // A waiter given up (its request timed out) cancels its own future and nobody else's.
            return Uni.createFrom().completionStage(mine);
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
            reservation.subscribe().with(granted -> reserved(granted, reserve), this::failed);
        }

        /**
         * Hands the block to the waiters, oldest first; when it does not reach them all and the
         * user's window is not spent, the rest wait for the next reservation, asked for at once.
         */
        private void reserved(int granted, Supplier<Uni<Integer>> reserve) {
            List<CompletableFuture<Verdict>> allowed = new ArrayList<>();
            List<CompletableFuture<Verdict>> refused = new ArrayList<>();
            boolean again;
            synchronized (this) {
                remaining += granted;
                if (granted == 0) {
                    usedUp = true; // the user's window is spent on every node
                }
                while (!waiting.isEmpty() && (remaining > 0 || usedUp)) {
                    CompletableFuture<Verdict> next = waiting.poll();
                    if (next.isDone()) {
                        continue; // given up: it spends nothing
                    }
                    if (remaining > 0) {
                        remaining--;
                        allowed.add(next);
                    } else {
                        refused.add(next);
                    }
                }
                waiting.removeIf(CompletableFuture::isDone); // nobody to reserve for any more
                again = !waiting.isEmpty();
                reserving = again;
            }
            allowed.forEach(request -> request.complete(Verdict.ALLOWED));
            refused.forEach(request -> request.complete(Verdict.REFUSED));
            if (again) {
                reserve(reserve);
            }
        }

        private void failed(Throwable failure) {
            List<CompletableFuture<Verdict>> told;
            synchronized (this) {
                reserving = false;
                told = new ArrayList<>(waiting);
                waiting.clear();
            }
            told.forEach(request -> request.completeExceptionally(failure));
        }
    }
}
