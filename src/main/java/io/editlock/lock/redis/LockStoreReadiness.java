package io.editlock.lock.redis;

import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.PipelinedRedis.RedisTimeoutException;
import io.editlock.redis.ScriptExecutor;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

/**
 * Ready = the lock store answers and holds every script. A script Redis forgot (restart,
 * SCRIPT FLUSH, failover) is loaded again here, so the first request after it pays nothing.
 *
 * <p>The readiness page is public: it says why in a few plain words, and the node's log says the rest
 * (Redis's address, its reply, the client's exception) once each time the reason changes, not on every
 * probe.
 */
@Readiness
@ApplicationScoped
public class LockStoreReadiness implements AsyncHealthCheck {

    private static final Logger LOG = Logger.getLogger(LockStoreReadiness.class);
    private static final String NAME = "editlock lock store";
    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    /** An error reply of Redis starts with its code in capitals; the client's own failures do not. */
    private static final Pattern REDIS_REPLY = Pattern.compile("^[A-Z]+(\\s|$)");

    static final String NO_ANSWER = "the lock store does not answer";
    static final String UNREACHABLE = "the lock store cannot be reached";
    static final String CONNECTIONS_REFUSED = "the lock store refuses this node's connections";
    static final String SCRIPTS_REFUSED = "the lock store does not take this node's scripts";

    private final ScriptExecutor scripts;
    private final PipelinedRedis redis;
    /** The reason of the last answer, null while ready: what the log was last told. */
    private final AtomicReference<String> lastReason = new AtomicReference<>();

    public LockStoreReadiness(ScriptExecutor scripts, PipelinedRedis redis) {
        this.scripts = scripts;
        this.redis = redis;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return scripts.preload()
                .map(loaded -> {
                    if (lastReason.getAndSet(null) != null) {
                        LOG.info("the lock store answers again: ready");
                    }
                    return HealthCheckResponse.named(NAME)
                            .up()
                            .withData("scripts", loaded)
                            .build();
                })
                .ifNoItem()
                .after(TIMEOUT)
                .fail()
                .onFailure()
                .recoverWithItem(this::down);
    }

    private HealthCheckResponse down(Throwable failure) {
        Optional<String> openFailure = redis.openFailure();
        String reason = reason(failure, openFailure);
        if (!reason.equals(lastReason.getAndSet(reason))) {
            LOG.warnf("not ready, %s: %s", reason, detail(failure, openFailure));
        }
        return HealthCheckResponse.named(NAME).down().withData("reason", reason).build();
    }

    /**
     * A command waiting for a connection that does not open fails only with its timeout: why the
     * connection did not open says more then.
     */
    static String reason(Throwable failure, Optional<String> openFailure) {
        if (openFailure.isPresent()) {
            return REDIS_REPLY.matcher(openFailure.get()).find() ? CONNECTIONS_REFUSED : UNREACHABLE;
        }
        if (failure instanceof TimeoutException || failure instanceof RedisTimeoutException) {
            return NO_ANSWER;
        }
        String message = failure.getMessage();
        return message != null && REDIS_REPLY.matcher(message).find() ? SCRIPTS_REFUSED : UNREACHABLE;
    }

    /** A check that runs out of time fails with no message: the log then says how long it waited. */
    private static String detail(Throwable failure, Optional<String> openFailure) {
        String error;
        if (failure instanceof TimeoutException) {
            error = "no answer within " + TIMEOUT.toMillis() + " ms";
        } else if (failure.getMessage() != null) {
            error = failure.getMessage();
        } else {
            error = PipelinedRedis.describe(failure);
        }
        return openFailure
                .map(reason -> error + " (the last Redis connection did not open: " + reason + ")")
                .orElse(error);
    }
}
