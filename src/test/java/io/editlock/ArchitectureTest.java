package io.editlock;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.editlock.lock.Guard;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.ext.ExceptionMapper;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The package picture of {@code docs/architecture.md}: which package of {@code io.editlock} may use
 * which. Lower packages never use higher ones, and no two packages use each other.
 */
@AnalyzeClasses(packages = "io.editlock", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String[] TRANSPORTS = {"io.editlock.ws..", "io.editlock.socketio..", "io.editlock.rest.."};

    @ArchTest
    static final ArchRule no_cycles_between_packages =
            slices().matching("io.editlock.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule config_uses_nothing_of_ours = usesOnly("io.editlock.config..");

    @ArchTest
    static final ArchRule redis_uses_only_config = usesOnly("io.editlock.redis..", "io.editlock.config..");

    /** Never the catalog (a port in lock/ answers which configurator holds an item), the wire or a socket. */
    @ArchTest
    static final ArchRule lock_uses_only_config_and_redis =
            usesOnly("io.editlock.lock..", "io.editlock.config..", "io.editlock.redis..");

    @ArchTest
    static final ArchRule catalog_uses_only_lock_redis_and_config =
            usesOnly("io.editlock.catalog..", "io.editlock.lock..", "io.editlock.redis..", "io.editlock.config..");

    /** The wire format shared by every transport: no transport, no session. */
    @ArchTest
    static final ArchRule protocol_uses_only_lock_catalog_and_config = usesOnly(
                    "io.editlock.protocol..", "io.editlock.lock..", "io.editlock.catalog..", "io.editlock.config..")
            .allowEmptyShould(true);

    /** Transports are on top: sessions, limits, relays, waiting lines and requests import none of them. */
    @ArchTest
    static final ArchRule only_transports_use_transports = noClasses()
            .that()
            .resideOutsideOfPackages(TRANSPORTS)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(TRANSPORTS);

    @ArchTest
    static final ArchRule events_and_waiting_use_no_transport = noClasses()
            .that()
            .resideInAnyPackage("io.editlock.events..", "io.editlock.waiting..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(TRANSPORTS);

    @ArchTest
    static final ArchRule ws_uses_no_other_transport = transportUsesNoOther("io.editlock.ws..");

    @ArchTest
    static final ArchRule socketio_uses_no_other_transport = transportUsesNoOther("io.editlock.socketio..");

    @ArchTest
    static final ArchRule rest_uses_no_other_transport = transportUsesNoOther("io.editlock.rest..");

    /** REST turns refusals into statuses in one place. */
    @ArchTest
    static final ArchRule rest_maps_errors_only_in_RestErrors = methods()
            .that()
            .areAnnotatedWith(ServerExceptionMapper.class)
            .should()
            .beDeclaredInClassesThat()
            .haveSimpleName("RestErrors");

    @ArchTest
    static final ArchRule no_exception_mapper_besides_RestErrors =
            noClasses().that().doNotHaveSimpleName("RestErrors").should().implement(ExceptionMapper.class);

    /**
     * A write with no guard is the catalog's own (a new configurator's record and first item, made
     * before anyone could lock them): a route that made one would write past every lock. Routes declare
     * {@code @RequireLock} and take the guard it resolved.
     */
    @ArchTest
    static final ArchRule only_the_catalog_writes_unguarded = noClasses()
            .that()
            .resideOutsideOfPackages("io.editlock.catalog..", "io.editlock.lock..")
            .should()
            .callMethod(Guard.class, "none", long.class);

    /** Internal API of Vert.x and Quarkus changes without notice between versions. */
    @ArchTest
    static final ArchRule no_vertx_or_quarkus_internal_api = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.vertx..impl..", "io.vertx.core.internal..", "io.quarkus..impl..");

    /**
     * A memoized Uni that is still waiting for its item hands it to every subscriber, and it adds a
     * subscriber to that list before it tells the subscriber that it subscribed: shared by requests on
     * several threads, an operator can then take the item for another stage's (an item of the wrong
     * type, a stage run twice, a command that never gets its reply). Work shared between waiters is a
     * future that each reads through a Uni of its own. (With Mutiny 3.1.1, a loop that races a
     * subscribe against the item from two threads saw the item arrive before onSubscribe in 8 of
     * 200,000 rounds.)
     */
    @ArchTest
    static final ArchRule no_memoized_uni =
            noClasses().should().callMethod(Uni.class, "memoize").orShould().callMethod(Multi.class, "cache");

    /** Classes in {@code own} use, of {@code io.editlock}, only classes in {@code own} and {@code allowed}. */
    private static ArchRule usesOnly(String own, String... allowed) {
        String[] permitted = new String[allowed.length + 1];
        permitted[0] = own;
        System.arraycopy(allowed, 0, permitted, 1, allowed.length);
        return noClasses()
                .that()
                .resideInAPackage(own)
                .should()
                .dependOnClassesThat(resideInAPackage("io.editlock..").and(not(resideInAnyPackage(permitted))))
                .as(String.format(
                        "classes in %s should use no class of io.editlock outside %s",
                        own, String.join(", ", permitted)));
    }

    private static ArchRule transportUsesNoOther(String transport) {
        return noClasses()
                .that()
                .resideInAPackage(transport)
                .should()
                .dependOnClassesThat(resideInAnyPackage(TRANSPORTS).and(not(resideInAPackage(transport))));
    }
}
