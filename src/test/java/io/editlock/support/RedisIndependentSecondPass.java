package io.editlock.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;

/**
 * Like {@link RedisIndependent}, for the other pass of {@code .ci/run}: a test whose outcome does not depend
 * on which redis-server the run uses, left out of the pass against the bundled one
 * ({@code EDITLOCK_EMBEDDED_REDIS_BINARY=bundled}) and run in the pass against the system's. The two
 * passes run at once on the same cores, so each leaves out about as much as the other. Every run that
 * does not name the bundled server, `./mvnw verify` included, runs them.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@DisabledIfEnvironmentVariable(
        named = "EDITLOCK_EMBEDDED_REDIS_BINARY",
        matches = "bundled",
        disabledReason = "independent of the Redis server: the pass against the other redis-server runs it")
public @interface RedisIndependentSecondPass {}
