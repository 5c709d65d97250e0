package io.editlock.redis;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code quarkus.redis.max-pool-size} too small for the subscriptions and the health check stops the
 * start with a message naming the setting and the minimum, instead of a node that silently misses
 * broadcasts. Plain JUnit: no server needed (RedisPoolSizeIT starts one).
 */
class RedisPoolSizeTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {-1, 0, 1, 2, 3})
    void aPoolTooSmallForTheSubscriptionsAndTheHealthCheckIsRefused(int maxPoolSize) {
        IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> RedisPoolSize.requireEnough(maxPoolSize));
        assertTrue(
                refused.getMessage().startsWith("quarkus.redis.max-pool-size is " + maxPoolSize + ",")
                        && refused.getMessage().contains("Set it to 4 or more"),
                "the message names the setting, its value and the minimum: " + refused.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {4, 6, 32})
    void aPoolWithRoomForTheSubscriptionsAndTheHealthCheckIsFine(int maxPoolSize) {
        assertDoesNotThrow(() -> RedisPoolSize.requireEnough(maxPoolSize));
    }

    @Test
    void theMinimumCountsEverySubscriptionTheServerStarts() throws NoSuchMethodException {
        // Every overload of start, called from outside (one overload calls the other). The classes as
        // compiled, read from where Maven puts them: importing by package reads whatever the class
        // loader of the moment finds, and after some Quarkus tests that missed calls.
        Set<JavaMethodCall> starts = new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPath(Path.of("target", "classes"))
                        .get(LastingSubscription.class)
                        .getMethods()
                        .stream()
                        .filter(method -> method.getName().equals("start"))
                        .flatMap(method -> method.getCallsOfSelf().stream())
                        .filter(call -> !call.getOriginOwner().isEquivalentTo(LastingSubscription.class))
                        .collect(Collectors.toSet());
        assertEquals(
                RedisPoolSize.SUBSCRIPTIONS,
                starts.size(),
                "each subscription holds a pooled connection, so RedisPoolSize.SUBSCRIPTIONS must count them all: "
                        + starts);
    }
}
