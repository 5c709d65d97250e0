package io.editlock.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;

/**
 * A test whose outcome does not depend on which redis-server the run uses (a node's start refused for
 * its settings, a stop with no Redis at all): {@code .ci/run} runs the suite against two Redis servers,
 * and its second pass ({@code EDITLOCK_TESTS_REDIS_ONLY=true}) leaves these out, as they would only
 * repeat the first pass. Every other run, `./mvnw verify` included, runs them.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@DisabledIfEnvironmentVariable(
        named = "EDITLOCK_TESTS_REDIS_ONLY",
        matches = "true",
        disabledReason = "independent of the Redis server: the pass against the other redis-server runs it")
public @interface RedisIndependent {}
