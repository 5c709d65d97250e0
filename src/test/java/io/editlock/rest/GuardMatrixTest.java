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
import java.util.function.BiFunction;
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

    /** Every write route; {@code blockedBy} transcribes the guard table of §8 (held by another user). */
    enum Route {
        PATCH_CONFIGURATOR(
                200,
                "CONFIGURATOR VARIABLES FILTERS DEPENDENCIES ATTRIBUTES CHILD_FILTERS SIBLING_FILTERS",
                (t, r) -> r.body(Map.of("name", "renamed")).patch("/api/configurators/" + t.c)),
        DELETE_CONFIGURATOR(
                204,
                "CONFIGURATOR VARIABLES FILTERS DEPENDENCIES ATTRIBUTES CHILD_FILTERS SIBLING_FILTERS",
                (t, r) -> r.delete("/api/configurators/" + t.c)),
        POST_ITEM(
                201,
                "CONFIGURATOR VARIABLES FILTERS DEPENDENCIES ATTRIBUTES CHILD_FILTERS SIBLING_FILTERS",
                (t, r) -> r.body(Map.of("name", "new", "parentItemId", t.i))
                        .post("/api/configurators/" + t.c + "/items")),
        PATCH_ITEM(
                200, "CONFIGURATOR", (t, r) -> r.body(Map.of("name", "renamed")).patch("/api/items/" + t.i)),
        DELETE_ITEM(
                204,
                "CONFIGURATOR FILTERS DEPENDENCIES ATTRIBUTES CHILD_FILTERS",
                (t, r) -> r.delete("/api/items/" + t.i)),
        POST_FILTER(
                201,
                "CONFIGURATOR FILTERS",
                (t, r) -> r.body(Map.of("expression", "size > 3")).post("/api/items/" + t.i + "/filters")),
        PATCH_FILTER(
                200,
                "CONFIGURATOR FILTERS",
                (t, r) -> r.body(Map.of("expression", "size > 4")).patch("/api/filters/" + t.f)),
        DELETE_FILTER(204, "CONFIGURATOR FILTERS", (t, r) -> r.delete("/api/filters/" + t.f)),
        POST_DEPENDENCY(
                201,
                "CONFIGURATOR DEPENDENCIES",
                (t, r) -> r.body(Map.of("targetItemId", t.k, "effect", "show"))
                        .post("/api/items/" + t.i + "/dependencies")),
        PATCH_DEPENDENCY(
                200,
                "CONFIGURATOR DEPENDENCIES",
                (t, r) -> r.body(Map.of("effect", "show")).patch("/api/dependencies/" + t.d)),
        DELETE_DEPENDENCY(204, "CONFIGURATOR DEPENDENCIES", (t, r) -> r.delete("/api/dependencies/" + t.d)),
        POST_ATTRIBUTE_VALUE(
                201,
                "CONFIGURATOR ATTRIBUTES",
                (t, r) -> r.body(Map.of("name", "color", "value", "red"))
                        .post("/api/items/" + t.i + "/attribute-values")),
        PATCH_ATTRIBUTE_VALUE(
                200,
                "CONFIGURATOR ATTRIBUTES",
                (t, r) -> r.body(Map.of("value", "13kg")).patch("/api/attribute-values/" + t.a)),
        DELETE_ATTRIBUTE_VALUE(204, "CONFIGURATOR ATTRIBUTES", (t, r) -> r.delete("/api/attribute-values/" + t.a)),
        POST_VARIABLE(
                201,
                "CONFIGURATOR VARIABLES",
                (t, r) -> r.body(Map.of("name", "n", "formula", "1")).post("/api/configurators/" + t.c + "/variables")),
        PATCH_VARIABLE(
                200,
                "CONFIGURATOR VARIABLES",
                (t, r) -> r.body(Map.of("formula", "2")).patch("/api/variables/" + t.v)),
        DELETE_VARIABLE(204, "CONFIGURATOR VARIABLES", (t, r) -> r.delete("/api/variables/" + t.v));

        final int success;
        final Set<Held> blockedBy;
        final BiFunction<Tree, RequestSpecification, Response> call;

        Route(int success, String blockedBy, BiFunction<Tree, RequestSpecification, Response> call) {
            this.success = success;
            this.blockedBy = Arrays.stream(blockedBy.split(" "))
                    .map(Held::valueOf)
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(Held.class)));
            this.call = call;
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
        Response response = route.call.apply(t, as(sara));
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
