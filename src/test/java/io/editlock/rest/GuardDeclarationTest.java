package io.editlock.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.lock.GuardType;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Plain JUnit, no Quarkus: every write route declares its guard (except the two the contract leaves
 * unguarded), and every declaration is complete. Routes inherited from {@link EntryResource} count for
 * each kind of entry, with the guard its class declares.
 */
class GuardDeclarationTest {

    static final List<Class<?>> RESOURCES = List.of(
            ConfiguratorResource.class,
            ItemResource.class,
            FilterResource.class,
            DependencyResource.class,
            AttributeValueResource.class,
            VariableResource.class,
            LockResource.class);
    /** POST /api/configurators (nothing to lock yet) and the admin's break-lock. */
    private static final Set<String> UNGUARDED = Set.of("ConfiguratorResource.create", "LockResource.breakLock");

    @Test
    void everyWriteRouteDeclaresAGuard() {
        List<String> writes = new ArrayList<>();
        for (Class<?> resource : RESOURCES) {
            for (Method method : resource.getMethods()) {
                boolean write = method.isAnnotationPresent(POST.class)
                        || method.isAnnotationPresent(PATCH.class)
                        || method.isAnnotationPresent(DELETE.class);
                if (!write) {
                    continue;
                }
                String name = resource.getSimpleName() + "." + method.getName();
                writes.add(name);
                RequireLock guard = LockGuardFilter.declared(resource, method);
                if (UNGUARDED.contains(name)) {
                    assertEquals(null, guard, name + " is unguarded by contract");
                    continue;
                }
                assertTrue(guard != null, name + " writes without @RequireLock");
                assertTrue(guard.value() != GuardType.NONE, name + " declares no guard");
                if (guard.value() == GuardType.PAGE) {
                    assertTrue(
                            guard.page().length == 1 || guard.idOf().page() != null,
                            name + ": a page guard names no page");
                }
            }
        }
        assertEquals(19, writes.size(), "the write routes of §8: " + writes);
    }
}
