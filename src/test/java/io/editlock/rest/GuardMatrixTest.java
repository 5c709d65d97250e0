package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.catalog.Entity;
import io.editlock.catalog.EntryStore;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.Holding;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §8, the guard table, for every write route × who holds what: nobody, the writer
 * (own locks never block), another user holding each lock that conflicts, another user holding
 * locks that do not. A refused write answers 423 naming the blocking lock and changes nothing.
 *
 * <p>The tree of every case: configurator C with item I, J below I, K beside I; I has a filter F, a
 * dependency D and an attribute value A; C has a variable V. Another configurator C2 exists.
 */
@QuarkusTest
class GuardMatrixTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    EntryStore entries;

    /** One writer and one other user, each with one socket, for all cases (every case has its own tree). */
    private static TestUser sara;

    private static TestUser omar;
    private static Holding writer;
    private static Holding other;

    /** Who holds what while Sara writes. */
    enum Held {
        NOBODY,
        WRITER_CONFIGURATOR,
        WRITER_FILTERS,
        CONFIGURATOR,
        VARIABLES,
        FILTERS,
        DEPENDENCIES,
        ATTRIBUTES,
        CHILD_FILTERS,
        SIBLING_FILTERS,
        OTHER_CONFIGURATOR
    }

    /**
     * Every guarded write route, by its method and path template (the id in the path is the tree's
     * entity that {@code idOf} names); {@code blockedBy} transcribes the guard table of §8 (held by
     * another user). {@link GuardDeclarationTest} checks that every guarded route of the API has a row.
     */
    enum Route {
        PATCH_CONFIGURATOR(
                "PATCH /api/configurators/{id}",
                Tree::c,
                t -> Map.of("name", "renamed"),
                200,
                "CONFIGURATOR VARIABLES FILTERS DEPENDENCIES ATTRIBUTES CHILD_FILTERS SIBLING_FILTERS"),
        DELETE_CONFIGURATOR(
                "DELETE /api/configurators/{id}",
                Tree::c,
                null,
                204,
                "CONFIGURATOR VARIABLES FILTERS DEPENDENCIES ATTRIBUTES CHILD_FILTERS SIBLING_FILTERS"),
        POST_ITEM(
                "POST /api/configurators/{id}/items",
                Tree::c,
                t -> Map.of("name", "new", "parentItemId", t.i),
                201,
                "CONFIGURATOR VARIABLES FILTERS DEPENDENCIES ATTRIBUTES CHILD_FILTERS SIBLING_FILTERS"),
        PATCH_ITEM("PATCH /api/items/{id}", Tree::i, t -> Map.of("name", "renamed"), 200, "CONFIGURATOR"),
        DELETE_ITEM(
                "DELETE /api/items/{id}",
                Tree::i,
                null,
                204,
                "CONFIGURATOR FILTERS DEPENDENCIES ATTRIBUTES CHILD_FILTERS"),
        POST_FILTER(
                "POST /api/items/{id}/filters",
                Tree::i,
                t -> Map.of("expression", "size > 3"),
                201,
                "CONFIGURATOR FILTERS"),
        PATCH_FILTER(
                "PATCH /api/filters/{id}", Tree::f, t -> Map.of("expression", "size > 4"), 200, "CONFIGURATOR FILTERS"),
        DELETE_FILTER("DELETE /api/filters/{id}", Tree::f, null, 204, "CONFIGURATOR FILTERS"),
        POST_DEPENDENCY(
                "POST /api/items/{id}/dependencies",
                Tree::i,
                t -> Map.of("targetItemId", t.k, "effect", "show"),
                201,
                "CONFIGURATOR DEPENDENCIES"),
        PATCH_DEPENDENCY(
                "PATCH /api/dependencies/{id}",
                Tree::d,
                t -> Map.of("effect", "show"),
                200,
                "CONFIGURATOR DEPENDENCIES"),
        DELETE_DEPENDENCY("DELETE /api/dependencies/{id}", Tree::d, null, 204, "CONFIGURATOR DEPENDENCIES"),
        POST_ATTRIBUTE_VALUE(
                "POST /api/items/{id}/attribute-values",
                Tree::i,
                t -> Map.of("name", "color", "value", "red"),
                201,
                "CONFIGURATOR ATTRIBUTES"),
        PATCH_ATTRIBUTE_VALUE(
                "PATCH /api/attribute-values/{id}",
                Tree::a,
                t -> Map.of("value", "13kg"),
                200,
                "CONFIGURATOR ATTRIBUTES"),
        DELETE_ATTRIBUTE_VALUE("DELETE /api/attribute-values/{id}", Tree::a, null, 204, "CONFIGURATOR ATTRIBUTES"),
        POST_VARIABLE(
                "POST /api/configurators/{id}/variables",
                Tree::c,
                t -> Map.of("name", "n", "formula", "1"),
                201,
                "CONFIGURATOR VARIABLES"),
        PATCH_VARIABLE(
                "PATCH /api/variables/{id}", Tree::v, t -> Map.of("formula", "2"), 200, "CONFIGURATOR VARIABLES"),
        DELETE_VARIABLE("DELETE /api/variables/{id}", Tree::v, null, 204, "CONFIGURATOR VARIABLES");

        /** {@code "<method> <path template>"}, as {@link GuardDeclarationTest} names routes. */
        final String route;

        final ToLongFunction<Tree> id;
        /** The request's body, or null for none. */
        final Function<Tree, Map<String, Object>> body;

        final int success;
        final Set<Held> blockedBy;

        Route(
                String route,
                ToLongFunction<Tree> id,
                Function<Tree, Map<String, Object>> body,
                int success,
                String blockedBy) {
            this.route = route;
            this.id = id;
            this.body = body;
            this.success = success;
            this.blockedBy = Arrays.stream(blockedBy.split(" "))
                    .map(Held::valueOf)
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(Held.class)));
        }

        Response call(Tree t, RequestSpecification request) {
            String[] methodAndPath = route.split(" ", 2);
            String path = methodAndPath[1].replace("{id}", String.valueOf(id.applyAsLong(t)));
            RequestSpecification withBody = body == null ? request : request.body(body.apply(t));
            return withBody.request(methodAndPath[0], path);
        }
    }

    record Tree(long c, long i, long j, long k, long f, long d, long a, long v, long c2) {}

    static Stream<Arguments> cases() {
        return Arrays.stream(Route.values())
                .flatMap(route -> Arrays.stream(Held.values())
                        .map(held -> Arguments.of(route, held, route.blockedBy.contains(held) ? 423 : route.success)));
    }

    @BeforeEach
    void connect() {
        if (writer == null) {
            sara = DemoLogin.user("Sara");
            omar = DemoLogin.user("Omar");
            writer = Holding.connect(base, sara);
            other = Holding.connect(base, omar);
        }
    }

    @AfterAll
    static void disconnect() {
        if (writer != null) {
            writer.close();
            other.close();
        }
    }

    @ParameterizedTest(name = "{0} while {1} -> {2}")
    @MethodSource("cases")
    void guardDecides(Route route, Held held, int expected) throws Exception {
        Tree t = tree();
        JsonNode blocking = hold(held, t);
        String before = as(sara).get("/api/configurators/" + t.c).asString();
        Response response = route.call(t, as(sara));
        assertEquals(expected, response.statusCode(), route + " while " + held + ": " + response.asString());
        if (expected == 423) {
            JsonNode body = JSON.readTree(response.asString());
            assertEquals("Currently edited by Omar", body.path("message").asText());
            assertEquals("Omar", body.path("lockedBy").asText());
            assertEquals(omar.id(), body.path("lockedByUserId").asText());
            assertEquals(blocking.path("resource"), body.path("resource"), "423 names the blocking lock");
            assertFalse(body.path("expiresAt").asText().isEmpty(), "423 carries expiresAt");
            assertEquals(
                    before,
                    as(sara).get("/api/configurators/" + t.c).asString(),
                    "a refused write changed the configurator");
        }
    }

    /** Takes the lock of the case; returns it (the blocking one when another user holds it). */
    private JsonNode hold(Held held, Tree t) {
        return switch (held) {
            case NOBODY -> null;
            case WRITER_CONFIGURATOR -> writer.configurator(t.c);
            case WRITER_FILTERS -> writer.page(t.i, "filters");
            case CONFIGURATOR -> other.configurator(t.c);
            case VARIABLES -> other.variables(t.c);
            case FILTERS -> other.page(t.i, "filters");
            case DEPENDENCIES -> other.page(t.i, "dependencies");
            case ATTRIBUTES -> other.page(t.i, "attributes");
            case CHILD_FILTERS -> other.page(t.j, "filters");
            case SIBLING_FILTERS -> other.page(t.k, "filters");
            case OTHER_CONFIGURATOR -> other.configurator(t.c2);
        };
    }

    /** Made in the store directly: what this test checks is the write, not the creates. */
    private Tree tree() {
        long c = Fixtures.configurator(store, sara.id());
        long i = Fixtures.item(store, c, null);
        long j = Fixtures.item(store, c, i);
        long k = Fixtures.item(store, c, null);
        return new Tree(
                c,
                i,
                j,
                k,
                Fixtures.entry(entries, Entity.FILTER, c, i, Map.of("expression", "color == 'red'")),
                Fixtures.entry(
                        entries, Entity.DEPENDENCY, c, i, Map.of("targetItemId", String.valueOf(k), "effect", "hide")),
                Fixtures.entry(entries, Entity.ATTRIBUTE_VALUE, c, i, Map.of("name", "weight", "value", "12kg")),
                Fixtures.entry(entries, Entity.VARIABLE, c, null, Map.of("name", "total", "formula", "a + b")),
                Fixtures.configurator(store, sara.id()));
    }
}
