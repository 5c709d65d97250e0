package io.editlock.redis;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs scripts by EVALSHA. Redis forgets its script cache on SCRIPT FLUSH, restart and failover;
 * then it answers NOSCRIPT and the script is sent once in full with EVAL, which caches it again.
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
