package io.editlock.lock.redis;

import io.editlock.redis.LuaScript;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready = the lock store answers and holds every lock script. A script Redis forgot (restart,
 * SCRIPT FLUSH, failover) is loaded again here, so the first lock request after it pays nothing.
 */
@Readiness
@ApplicationScoped
public class LockStoreReadiness implements AsyncHealthCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final ReactiveRedisDataSource redis;

    public LockStoreReadiness(ReactiveRedisDataSource redis) {
        this.redis = redis;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return Multi.createFrom().iterable(LockScripts.ALL)
                .onItem().transformToUniAndConcatenate(this::ensureLoaded)
                .collect().asList()
                .map(loaded -> HealthCheckResponse.named("editlock lock store").up()
                        .withData("scripts", loaded.size()).build())
                .ifNoItem().after(TIMEOUT).fail()
                .onFailure().recoverWithItem(failure -> HealthCheckResponse.named("editlock lock store").down()
                        .withData("error", String.valueOf(failure.getMessage())).build());
    }

    private Uni<String> ensureLoaded(LuaScript script) {
        return redis.execute(Command.SCRIPT, "EXISTS", script.sha1())
                .flatMap(exists -> exists.get(0).toInteger() == 1
                        ? Uni.createFrom().item(script.sha1())
                        : redis.execute(Command.SCRIPT, "LOAD", script.source()).map(Object::toString));
    }
}
