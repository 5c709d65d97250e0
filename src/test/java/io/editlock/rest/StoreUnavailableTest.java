package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.hamcrest.Matchers.notNullValue;

import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §8: with the lock store unreachable, every route answers 503 — writes fail closed, never
 * open, and reads cannot be served either. The profile points the Redis client at a closed port
 * (so no embedded Redis is started).
 */
@QuarkusTest
@TestProfile(StoreUnavailableTest.ClosedRedis.class)
class StoreUnavailableTest {

    public static class ClosedRedis implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.redis.hosts", "redis://127.0.0.1:1", "quarkus.redis.timeout", "2s");
        }
    }

    @Test
    void everyRouteIs503() {
        TestUser sara = DemoLogin.user("Sara");
        TestUser admin = DemoLogin.user("Ada", "admin");
        Map<String, Function<RequestSpecification, Response>> routes = Map.ofEntries(
                Map.entry("GET configurators", r -> r.get("/api/configurators")),
                Map.entry("POST configurators", r -> r.body(Map.of("name", "x")).post("/api/configurators")),
                Map.entry("GET configurator", r -> r.get("/api/configurators/1")),
                Map.entry("PATCH configurator", r -> r.body(Map.of("name", "x")).patch("/api/configurators/1")),
                Map.entry("DELETE configurator", r -> r.delete("/api/configurators/1")),
                Map.entry("POST item", r -> r.body(Map.of("name", "x")).post("/api/configurators/1/items")),
                Map.entry(
                        "POST variable",
                        r -> r.body(Map.of("name", "x", "formula", "1")).post("/api/configurators/1/variables")),
                Map.entry("GET locks", r -> r.get("/api/configurators/1/locks")),
                Map.entry("GET item", r -> r.get("/api/items/1")),
                Map.entry("PATCH item", r -> r.body(Map.of("name", "x")).patch("/api/items/1")),
                Map.entry("DELETE item", r -> r.delete("/api/items/1")),
                Map.entry("POST filter", r -> r.body(Map.of("expression", "x")).post("/api/items/1/filters")),
                Map.entry(
                        "POST dependency",
                        r -> r.body(Map.of("targetItemId", 2, "effect", "x")).post("/api/items/1/dependencies")),
                Map.entry(
                        "POST attribute value",
                        r -> r.body(Map.of("name", "x", "value", "y")).post("/api/items/1/attribute-values")),
                Map.entry("GET filter", r -> r.get("/api/filters/1")),
                Map.entry("PATCH filter", r -> r.body(Map.of("expression", "x")).patch("/api/filters/1")),
                Map.entry("DELETE dependency", r -> r.delete("/api/dependencies/1")),
                Map.entry(
                        "PATCH attribute value",
                        r -> r.body(Map.of("value", "x")).patch("/api/attribute-values/1")),
                Map.entry("DELETE variable", r -> r.header("Lock-Token", "5").delete("/api/variables/1")));
        routes.forEach(
                (name, call) -> call.apply(as(sara)).then().statusCode(503).body("message", notNullValue()));
        as(admin).delete("/api/locks/configurator:1").then().statusCode(503);
    }
}
