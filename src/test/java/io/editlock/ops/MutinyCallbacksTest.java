package io.editlock.ops;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Mutiny runs the server's callbacks as they are: no decorator wraps them to capture and restore
 * contexts, a cost every lock request would pay several times over.
 */
@QuarkusTest
class MutinyCallbacksTest {

    @Test
    void callbacksAreNotWrapped() {
        assertUnwrapped();
    }

    @Test
    void callbacksAreNotWrappedInsideARequest() {
        ManagedContext request = Arc.container().requestContext();
        request.activate();
        try {
            assertUnwrapped();
        } finally {
            request.terminate();
        }
    }

    private static void assertUnwrapped() {
        Function<String, Integer> function = String::length;
        Consumer<String> consumer = s -> {};
        Supplier<String> supplier = () -> "";
        Runnable runnable = () -> {};
        assertSame(function, Infrastructure.decorate(function));
        assertSame(consumer, Infrastructure.decorate(consumer));
        assertSame(supplier, Infrastructure.decorate(supplier));
        assertSame(runnable, Infrastructure.decorate(runnable));
    }
}
