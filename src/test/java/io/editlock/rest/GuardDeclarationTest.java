package io.editlock.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.editlock.lock.GuardType;
import jakarta.ws.rs.Path;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Plain JUnit, no Quarkus: every write route of the API (of every resource class in {@code io.editlock},
 * as compiled, so a new class cannot be missed; found by the same reading that documents the API,
 * {@link WriteDocs}) declares its guard, except those the contract leaves unguarded, and every declaration
 * is complete. Routes inherited from {@link EntryResource} count for each kind of entry, with the guard
 * its class declares. Every guarded route has its row in {@link GuardMatrixTest}, which checks it against
 * the guard table of docs/protocol.md §8: a declaration of the wrong kind of guard passes here and fails
 * there.
 */
class GuardDeclarationTest {

    /**
     * The create of a configurator (nothing to lock yet), the admin's break-lock, and the demo sign-in (it
     * writes nothing of the catalog).
     */
    private static final Set<String> UNGUARDED =
            Set.of("POST /api/configurators", "DELETE /api/locks/{canonical}", "POST /api/auth/demo-login");

    private static Map<String, WriteDocs.Route> guarded;

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
    static void findGuardedRoutes() {
        guarded = WriteDocs.guardedRoutes(resources());
    }

    @Test
    void onlyTheRoutesTheContractLeavesUnguardedWriteWithoutAGuard() {
        assertEquals(
                new TreeSet<>(UNGUARDED),
                WriteDocs.unguardedWrites(resources()),
                "write routes without @RequireLock (on the method or its class)");
    }

    @Test
    void everyGuardIsComplete() {
        List<String> problems = new ArrayList<>();
        guarded.forEach((route, served) -> {
            RequireLock guard = served.guard();
            if (guard.value() == GuardType.NONE) {
                problems.add(route + " declares no guard");
            } else if (guard.value() == GuardType.PAGE
                    && guard.page().length != 1
                    && guard.idOf().page() == null) {
                problems.add(route + ": a page guard names no page");
            }
        });
        assertEquals(List.of(), problems);
    }

    @Test
    void everyGuardedRouteIsInTheGuardMatrix() {
        Set<String> inMatrix = Arrays.stream(GuardMatrixTest.Route.values())
                .map(row -> row.route)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> missing = new TreeSet<>(guarded.keySet());
        missing.removeAll(inMatrix);
        Set<String> gone = new TreeSet<>(inMatrix);
        gone.removeAll(guarded.keySet());
        assertEquals(
                Set.of(),
                missing,
                "guarded routes with no row in GuardMatrixTest.Route: add one with the locks that block the"
                        + " route by the guard table of docs/protocol.md §8");
        assertEquals(Set.of(), gone, "rows of GuardMatrixTest.Route for routes that do not exist");
    }
}
