package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/rest-api.md: a 201 names what it created with {@code Location: /api/configurators/{id}} (and
 * {@code /api/items/{id}}, {@code /api/variables/{id}}, …), the path as written, whatever host or scheme
 * the request came through; a keyed retry gets "the same Location", also from another node.
 */
@QuarkusTest
class LocationHeaderTest {

    private static final String KEY = "Idempotency-Key";
    /** Another name of this node, as a second node or a proxy in front would be reached. */
    private static final String OTHER_HOST = "node-b.example:8443";

    private TestUser sara;

    @BeforeEach
    void login() {
        sara = DemoLogin.user("Sara");
    }

    @Test
    void everyCreateNamesItsPathAsSent() {
        for (String host : new String[] {null, OTHER_HOST}) {
            Response configurator = post(host, null, "/api/configurators", "{\"name\":\"Bike\"}");
            long c = configurator.jsonPath().getLong("id");
            assertEquals("/api/configurators/" + c, configurator.header("Location"));
            Response item = post(host, null, "/api/configurators/" + c + "/items", "{\"name\":\"Frame\"}");
            long i = item.jsonPath().getLong("id");
            assertEquals("/api/items/" + i, item.header("Location"));
            String[][] entries = {
                {"/api/items/" + i + "/filters", "{\"expression\":\"x\"}", "filters"},
                {"/api/items/" + i + "/dependencies", "{\"targetItemId\":" + i + ",\"effect\":\"hide\"}", "dependencies"
                },
                {"/api/items/" + i + "/attribute-values", "{\"name\":\"n\",\"value\":\"v\"}", "attribute-values"},
                {"/api/configurators/" + c + "/variables", "{\"name\":\"v\",\"formula\":\"1\"}", "variables"}
            };
            for (String[] entry : entries) {
                Response created = post(host, null, entry[0], entry[1]);
                assertEquals(
                        "/api/" + entry[2] + "/" + created.jsonPath().getLong("id"),
                        created.header("Location"),
                        entry[0]);
                as(sara).get(created.header("Location")).then().statusCode(200);
            }
        }
    }

    @Test
    void aKeyedRetryThroughAnotherHostGetsTheSameLocation() {
        String key = UUID.randomUUID().toString();
        Response first = post(null, key, "/api/configurators", "{\"name\":\"Bike\"}");
        Response retry = post(OTHER_HOST, key, "/api/configurators", "{\"name\":\"Bike\"}");
        assertEquals("/api/configurators/" + first.jsonPath().getLong("id"), first.header("Location"));
        assertEquals(first.header("Location"), retry.header("Location"));
    }

    @Test
    void aKeyedRetryAfterItsPlaceWasDeletedGetsTheSameLocationThroughAnotherHost() {
        long c = Api.configurator(sara);
        String key = UUID.randomUUID().toString();
        String route = "/api/configurators/" + c + "/items";
        Response first = post(null, key, route, "{\"name\":\"Frame\"}");
        assertEquals("/api/items/" + first.jsonPath().getLong("id"), first.header("Location"));
        as(sara).delete("/api/configurators/" + c).then().statusCode(204);
        Response retry = post(OTHER_HOST, key, route, "{\"name\":\"Frame\"}");
        assertEquals(first.header("Location"), retry.header("Location"));
        assertEquals(first.asString(), retry.asString());
    }

    /** A create that must answer 201; through {@code host} when not null, under {@code key} when not null. */
    private Response post(String host, String key, String route, String body) {
        var request = as(sara).body(body);
        if (host != null) {
            request.header("Host", host).header("X-Forwarded-Proto", "https");
        }
        if (key != null) {
            request.header(KEY, key);
        }
        Response response = request.post(route);
        assertEquals(201, response.statusCode(), route + ": " + response.asString());
        return response;
    }
}
