package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §8: "the same body" is the same JSON, not the same text. A retry whose body has its
 * fields in another order, other whitespace, other escapes or a null for an absent field gets the
 * first answer; a body that says something else is 422.
 */
@QuarkusTest
class IdempotencyFingerprintTest {

    private static final String KEY = "Idempotency-Key";

    static Stream<Arguments> retries() {
        String variable = "{\"name\":\"total\",\"formula\":\"a + b\"}";
        String dependency = "{\"targetItemId\":{target},\"effect\":\"hide\"}";
        String item = "{\"name\":\"Frame\",\"parentItemId\":{target}}";
        return Stream.of(
                Arguments.of("variables", variable, "{\"formula\":\"a + b\",\"name\":\"total\"}", 201),
                Arguments.of("variables", variable, "{\n  \"formula\" : \"a + b\",\n  \"name\" : \"total\"\n}", 201),
                Arguments.of("variables", variable, "{\"formula\":\"\\u0061 + b\",\"name\":\"total\"}", 201),
                Arguments.of("variables", variable, "{\"name\":\"total\",\"formula\":\"a + c\"}", 422),
                Arguments.of("variables", variable, "{\"formula\":\"a + b\",\"name\":\"Total\"}", 422),
                Arguments.of("dependencies", dependency, "{\"effect\":\"hide\",\"targetItemId\":{target}}", 201),
                Arguments.of("dependencies", dependency, "{ \"effect\": \"hide\", \"targetItemId\": {target} }", 201),
                Arguments.of("dependencies", dependency, "{\"effect\":\"show\",\"targetItemId\":{target}}", 422),
                Arguments.of("dependencies", dependency, "{\"effect\":\"hide\",\"targetItemId\":{item}}", 422),
                Arguments.of("items", item, "{\"parentItemId\":{target},\"name\":\"Frame\"}", 201),
                Arguments.of("items", "{\"name\":\"Frame\",\"parentItemId\":null}", "{\"name\":\"Frame\"}", 201),
                Arguments.of("items", "{\"parentItemId\":null,\"name\":\"Frame\"}", "{\"name\":\"Frame\"}", 201),
                Arguments.of("items", item, "{\"name\":\"Frame\"}", 422));
    }

    @ParameterizedTest(name = "{0}: {1} then {2} → {3}")
    @MethodSource("retries")
    void aRetryIsTheSameRequestWhenItsBodyIsTheSameJson(String route, String first, String retry, int status) {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        long target = Api.item(sara, c, null);
        String path = switch (route) {
            case "dependencies" -> "/api/items/" + item + "/dependencies";
            default -> "/api/configurators/" + c + "/" + route;
        };
        String key = UUID.randomUUID().toString();

        Response created =
                as(sara).header(KEY, key).body(fill(first, item, target)).post(path);
        Response again =
                as(sara).header(KEY, key).body(fill(retry, item, target)).post(path);

        assertEquals(201, created.statusCode(), created.asString());
        assertEquals(status, again.statusCode(), "retry " + retry + " after " + first + ": " + again.asString());
        if (status == 201) {
            assertEquals(created.header("Location"), again.header("Location"), "the same entity, not a second one");
            assertEquals(created.asString(), again.asString(), "the first answer again");
        }
    }

    static Stream<Arguments> paths() {
        return Stream.of(
                Arguments.of("/api/items/{item}/filters", "/api/items/0{item}/filters", 201),
                Arguments.of("/api/items/{item}/filters", "/api/items/000{item}/filters", 201),
                Arguments.of("/api/items/0{item}/filters", "/api/items/{item}/filters", 201),
                Arguments.of("/api/items/{item}/filters", "/api/items/000000000000000000000{item}/filters", 201),
                Arguments.of("/api/items/{item}/filters", "/api/items/{item}/filters/", 201),
                Arguments.of("/api/items/{item}/filters", "/api/items//{item}/filters", 201),
                Arguments.of("/api/items/{item}/filters", "/api/items/%3{item}/filters", 201),
                Arguments.of("/api/items/{item}/filters", "/api/items/{target}/filters", 422),
                Arguments.of("/api/configurators/{c}/items", "/api/configurators/0{c}/items", 201));
    }

    /**
     * An id written with leading zeros, or percent-encoded, names the same configurator or item (§8), and
     * a doubled or trailing slash names nothing more: the same route.
     */
    @ParameterizedTest(name = "{0} then {1} → {2}")
    @MethodSource("paths")
    void aRetryIsOnTheSameRouteWhenItsPathNamesTheSameIds(String first, String retry, int status) {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        long target = Api.item(sara, c, null);
        String body = first.endsWith("/items") ? "{\"name\":\"Frame\"}" : "{\"expression\":\"size > 3\"}";
        String key = UUID.randomUUID().toString();

        Response created = as(sara).header(KEY, key)
                .body(body)
                .post(fill(first, item, target).replace("{c}", "" + c));
        Response again = as(sara).header(KEY, key)
                .urlEncodingEnabled(false)
                .body(body)
                .post(fill(retry, item, target).replace("{c}", "" + c));

        assertEquals(201, created.statusCode(), created.asString());
        assertEquals(status, again.statusCode(), "retry on " + retry + " after " + first + ": " + again.asString());
        if (status == 201) {
            assertEquals(created.header("Location"), again.header("Location"), "the same entity, not a second one");
            assertEquals(created.asString(), again.asString(), "the first answer again");
        }
    }

    private static String fill(String body, long item, long target) {
        return body.replace("{item}", String.valueOf(item)).replace("{target}", String.valueOf(target));
    }
}
