package io.editlock.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.editlock.lock.GuardType;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Plain JUnit, no Quarkus: every write route of the API (every resource class in {@code io.editlock},
 * found in the compiled classes, so a new one cannot be missed) declares its guard, except the two the
 * contract leaves unguarded, and every declaration is complete. Routes inherited from
 * {@link EntryResource} count for each kind of entry, with the guard its class declares. Every guarded
 * route has its row in {@link GuardMatrixTest}, which checks it against the guard table of
 * docs/protocol.md §8: a declaration of the wrong kind of guard passes here and fails there.
 */
class GuardDeclarationTest {

    private static final List<Class<? extends Annotation>> WRITES =
            List.of(POST.class, PUT.class, PATCH.class, DELETE.class);
    /**
     * POST /api/configurators (nothing to lock yet), the admin's break-lock, and the demo sign-in (it
     * writes nothing of the catalog).
     */
    private static final Set<String> UNGUARDED =
            Set.of("POST /api/configurators", "DELETE /api/locks/{canonical}", "POST /api/auth/demo-login");

    /** Every write route, {@code "<method> <path template>"}, with the class and method that serve it. */
    private static Map<String, Served> writes;

    record Served(Class<?> resource, Method method) {
        String name() {
            return resource.getSimpleName() + "." + method.getName();
        }
    }

    /** The resource classes of the API: every class of {@code io.editlock} with a {@code @Path}, as compiled. */
    static List<Class<?>> resources() {
        List<Class<?>> resources = new ArrayList<>();
        for (JavaClass found : new ClassFileImporter()
                .withImportOption(new ImportOption.DoNotIncludeTests())
                .importPackages("io.editlock")) {
            Class<?> resource = found.reflect();
            if (resource.isAnnotationPresent(Path.class) && !Modifier.isAbstract(resource.getModifiers())) {
                resources.add(resource);
            }
        }
        return resources;
    }

    @BeforeAll
    static void findWriteRoutes() {
        writes = new TreeMap<>();
        for (Class<?> resource : resources()) {
            String classPath = resource.getAnnotation(Path.class).value();
            for (Method method : resource.getMethods()) {
                if (method.isBridge()) {
                    continue;
                }
                for (Class<? extends Annotation> write : WRITES) {
                    if (method.isAnnotationPresent(write)) {
                        Path methodPath = method.getAnnotation(Path.class);
                        String route = write.getSimpleName() + " " + classPath
                                + (methodPath == null ? "" : methodPath.value());
                        Served before = writes.put(route, new Served(resource, method));
                        assertEquals(null, before, route + " is served twice");
                    }
                }
            }
        }
        assertTrue(writes.size() > UNGUARDED.size(), "write routes were found: " + writes.keySet());
    }

    @Test
    void everyWriteRouteDeclaresAGuard() {
        List<String> problems = new ArrayList<>();
        writes.forEach((route, served) -> {
            RequireLock guard = LockGuardFilter.declared(served.resource(), served.method());
            if (UNGUARDED.contains(route)) {
                if (guard != null) {
                    problems.add(route + " (" + served.name() + ") is unguarded by contract");
                }
            } else if (guard == null) {
                problems.add(route + " (" + served.name() + ") writes without @RequireLock");
            } else if (guard.value() == GuardType.NONE) {
                problems.add(route + " (" + served.name() + ") declares no guard");
            } else if (guard.value() == GuardType.PAGE
                    && guard.page().length != 1
                    && guard.idOf().page() == null) {
                problems.add(route + " (" + served.name() + "): a page guard names no page");
            }
        });
        assertEquals(List.of(), problems);
        assertTrue(writes.keySet().containsAll(UNGUARDED), "the unguarded routes exist: " + writes.keySet());
    }

    @Test
    void everyGuardedRouteIsInTheGuardMatrix() {
        Set<String> guarded = new TreeSet<>(writes.keySet());
        guarded.removeAll(UNGUARDED);
        Set<String> inMatrix = Arrays.stream(GuardMatrixTest.Route.values())
                .map(row -> row.route)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> missing = new TreeSet<>(guarded);
        missing.removeAll(inMatrix);
        Set<String> gone = new TreeSet<>(inMatrix);
        gone.removeAll(guarded);
        assertEquals(
                Set.of(),
                missing,
                "guarded routes with no row in GuardMatrixTest.Route: add one with the locks that block the"
                        + " route by the guard table of docs/protocol.md §8");
        assertEquals(Set.of(), gone, "rows of GuardMatrixTest.Route for routes that do not exist");
    }
}
