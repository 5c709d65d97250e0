package io.editlock.support;

import static org.awaitility.Awaitility.await;

import io.editlock.redis.LuaScript;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.ScriptExecutor;
import io.quarkus.test.junit.QuarkusMock;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.redis.client.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The server's own script runner, with a test's action right before the next run of a named script:
 * freezing Redis there makes exactly that script wait in it (what ran before it is answered), and
 * holding it back lets the test set the scene it must find; freezing it right after a script's
 * reply stalls the server's next step. Installed for one test with
 * {@link #install}; every other script runs as always.
 */
public final class ScriptHooks extends ScriptExecutor {

    private final Map<String, Supplier<Uni<Void>>> before = new ConcurrentHashMap<>();
    /** Runs before the next run of a script whose arguments (ARGV) match, by script name. */
    private final Map<String, Map.Entry<BiPredicate<List<String>, List<String>>, Supplier<Uni<Void>>>> beforeMatching =
            new ConcurrentHashMap<>();

    private final Map<String, Supplier<Uni<Void>>> after = new ConcurrentHashMap<>();

    private ScriptHooks(PipelinedRedis redis) {
        super(redis);
    }

    /** Runs the server's scripts through the returned hooks until the calling test ends. */
    public static ScriptHooks install(PipelinedRedis redis) {
        ScriptHooks hooks = new ScriptHooks(redis);
        QuarkusMock.installMockForType(hooks, ScriptExecutor.class);
        return hooks;
    }

    /**
     * The next run of the script (its file name without {@code .lua}) waits for {@code action}, run
     * when the script would go out; later runs go out at once.
     */
    public void beforeNext(String scriptName, Supplier<Uni<Void>> action) {
        before.put(scriptName, action);
    }

    /**
     * The next run of the script whose arguments (its ARGV) {@code args} accepts waits for {@code
     * action}; runs of it with other arguments go out at once, and so do later ones.
     */
    public void beforeNext(String scriptName, Predicate<List<String>> args, Supplier<Uni<Void>> action) {
        beforeNext(scriptName, (keys, argv) -> args.test(argv), action);
    }

    /** As {@link #beforeNext(String, Predicate, Supplier)}, choosing by the run's KEYS and ARGV. */
    public void beforeNext(
            String scriptName, BiPredicate<List<String>, List<String>> keysAndArgs, Supplier<Uni<Void>> action) {
        beforeMatching.put(scriptName, Map.entry(keysAndArgs, action));
    }

    /**
     * The next run of the script hands its reply on only after {@code action}, run when the reply
     * arrives: freezing Redis there stalls what the server does next, after the script did its work.
     */
    public void afterNext(String scriptName, Supplier<Uni<Void>> action) {
        after.put(scriptName, action);
    }

    /**
     * The next run of the script waits in the server until the returned gate opens: what the server does
     * meanwhile (a close, a resume) finds that request in hand.
     */
    public Gate holdNext(String scriptName) {
        Gate gate = new Gate();
        beforeNext(scriptName, () -> {
            gate.reached.set(true);
            return Uni.createFrom().completionStage(gate.opened);
        });
        return gate;
    }

    /** A script run held back by {@link #holdNext}. */
    public static final class Gate {
        private final AtomicBoolean reached = new AtomicBoolean();
        private final CompletableFuture<Void> opened = new CompletableFuture<>();

        /** Returns once the run is held back: the request that makes it is in hand. */
        public void awaitReached() {
            await("the script's run is held back")
                    .atMost(Duration.ofSeconds(10))
                    .untilTrue(reached);
        }

        /** Lets the run go out. */
        public void open() {
            opened.complete(null);
        }
    }

    /** As {@link #beforeNext(String, Supplier)}, for an action that blocks: it runs on a worker thread. */
    public void beforeNextBlocking(String scriptName, Runnable action) {
        beforeNext(scriptName, () -> blocking(action));
    }

    /** As {@link #afterNext}, for an action that blocks (awaits a latch or an event): it runs on a worker thread. */
    public void afterNextBlocking(String scriptName, Runnable action) {
        afterNext(scriptName, () -> blocking(action));
    }

    private static Uni<Void> blocking(Runnable action) {
        return Uni.createFrom()
                .item(() -> {
                    action.run();
                    return null;
                })
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .replaceWithVoid();
    }

    @Override
    public Uni<Response> run(LuaScript script, List<String> keys, List<String> args) {
        return Uni.createFrom().deferred(() -> {
            Supplier<Uni<Void>> action = before.remove(script.name());
            Map.Entry<BiPredicate<List<String>, List<String>>, Supplier<Uni<Void>>> matching =
                    beforeMatching.get(script.name());
            if (action == null
                    && matching != null
                    && matching.getKey().test(keys, args)
                    && beforeMatching.remove(script.name(), matching)) {
                action = matching.getValue();
            }
            Supplier<Uni<Void>> then = after.remove(script.name());
            Uni<Void> first = action == null ? Uni.createFrom().voidItem() : action.get();
            Uni<Response> reply = first.chain(() -> super.run(script, keys, args));
            return then == null ? reply : reply.call(() -> then.get());
        });
    }
}
