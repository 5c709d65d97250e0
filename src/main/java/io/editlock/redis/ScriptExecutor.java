package io.editlock.redis;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the scripts of {@link Scripts}, always by EVALSHA. Redis forgets its script cache on SCRIPT
 * FLUSH, restart and failover; then it answers NOSCRIPT and the script is sent once in full with
 * EVAL, which caches it again. {@link #preload} loads every script ahead, so that the first request
 * after such a loss pays nothing.
 */
@ApplicationScoped
public class ScriptExecutor {

    private final PipelinedRedis redis;

    public ScriptExecutor(PipelinedRedis redis) {
        this.redis = redis;
    }

    public Uni<Response> run(LuaScript script, List<String> keys, List<String> args) {
        return redis.execute(Command.EVALSHA, arguments(script.sha1(), keys, args))
                .onFailure(ScriptExecutor::isNoScript)
                .recoverWithUni(() -> redis.execute(Command.EVAL, arguments(script.source(), keys, args)));
    }

    /**
     * Makes sure Redis holds every script: one SCRIPT EXISTS for all, a SCRIPT LOAD for each one it
     * forgot. @return the number of scripts it holds now
     */
    public Uni<Integer> preload() {
        String[] exists = new String[1 + Scripts.ALL.size()];
        exists[0] = "EXISTS";
        for (int i = 0; i < Scripts.ALL.size(); i++) {
            exists[i + 1] = Scripts.ALL.get(i).sha1();
        }
        return redis.execute(Command.SCRIPT, exists)
                .flatMap(cached -> {
                    List<LuaScript> missing = new ArrayList<>();
                    for (int i = 0; i < Scripts.ALL.size(); i++) {
                        if (cached.get(i).toInteger() != 1) {
                            missing.add(Scripts.ALL.get(i));
                        }
                    }
                    return Multi.createFrom()
                            .iterable(missing)
                            .onItem()
                            .transformToUniAndConcatenate(
                                    script -> redis.execute(Command.SCRIPT, "LOAD", script.source()))
                            .collect()
                            .asList();
                })
                .replaceWith(Scripts.ALL.size());
    }

    private static String[] arguments(String scriptOrSha, List<String> keys, List<String> args) {
        List<String> all = new ArrayList<>(2 + keys.size() + args.size());
        all.add(scriptOrSha);
        all.add(String.valueOf(keys.size()));
        all.addAll(keys);
        all.addAll(args);
        return all.toArray(String[]::new);
    }

    private static boolean isNoScript(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("NOSCRIPT");
    }
}
