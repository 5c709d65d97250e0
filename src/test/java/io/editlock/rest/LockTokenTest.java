package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Holding;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §7: a write with {@code Lock-Token} goes through only when the token is that of a lock
 * the writer holds now and that covers the write; else 412, even for the same user.
 */
@QuarkusTest
class LockTokenTest {

    @TestHTTPResource("/")
    URI base;

    private TestUser sara;
    private TestUser omar;
    private long c;
    private long item;

    @BeforeEach
    void tree() {
        sara = DemoLogin.user("Sara");
        omar = DemoLogin.user("Omar");
        c = Api.configurator(sara);
        item = Api.item(sara, c, null);
    }

    @Test
    void theTokenOfTheHeldPageLockIsAccepted() {
        try (Holding mine = Holding.connect(base, sara)) {
            long token = mine.page(item, "filters").path("token").asLong();
            addFilter(token).then().statusCode(201);
        }
    }

    @Test
    void aStaleTokenIs412() {
        try (Holding mine = Holding.connect(base, sara)) {
            long first = mine.page(item, "filters").path("token").asLong();
            mine.socket().request("unlock-item-subresource", Map.of("itemId", item, "page", "filters"));
            addFilter(first).then().statusCode(412);
            long second = mine.page(item, "filters").path("token").asLong();
            addFilter(first).then().statusCode(412);
            addFilter(second).then().statusCode(201);
        }
    }

    @Test
    void anotherUsersTokenIs412() {
        try (Holding theirs = Holding.connect(base, omar)) {
            long foreign = theirs.page(item, "dependencies").path("token").asLong();
            addFilter(foreign).then().statusCode(412);
        }
    }

    @Test
    void aTokenOfOwnLockThatDoesNotCoverTheWriteIs412() {
        try (Holding mine = Holding.connect(base, sara)) {
            long dependencies = mine.page(item, "dependencies").path("token").asLong();
            addFilter(dependencies).then().statusCode(412);
            long variables = mine.variables(c).path("token").asLong();
            as(sara).header("Lock-Token", variables)
                    .body(Map.of("name", "x", "formula", "1"))
                    .post("/api/configurators/" + c + "/variables")
                    .then()
                    .statusCode(201);
            as(sara).header("Lock-Token", variables)
                    .body(Map.of("name", "x"))
                    .patch("/api/configurators/" + c)
                    .then()
                    .statusCode(412);
            as(sara).header("Lock-Token", variables)
                    .body(Map.of("name", "x"))
                    .patch("/api/items/" + item)
                    .then()
                    .statusCode(412);
        }
    }

    @Test
    void theConfiguratorLockTokenCoversEveryWriteInIt() {
        try (Holding mine = Holding.connect(base, sara)) {
            long token = mine.configurator(c).path("token").asLong();
            addFilter(token).then().statusCode(201);
            as(sara).header("Lock-Token", token)
                    .body(Map.of("name", "v", "formula", "1"))
                    .post("/api/configurators/" + c + "/variables")
                    .then()
                    .statusCode(201);
            as(sara).header("Lock-Token", token)
                    .body(Map.of("name", "y"))
                    .patch("/api/items/" + item)
                    .then()
                    .statusCode(200);
            as(sara).header("Lock-Token", token)
                    .body(Map.of("name", "z"))
                    .patch("/api/configurators/" + c)
                    .then()
                    .statusCode(200);
            as(sara).header("Lock-Token", token)
                    .delete("/api/items/" + item)
                    .then()
                    .statusCode(204);
        }
    }

    @Test
    void aTokenWithoutAnyLockIs412AndNoTokenIsFine() {
        addFilter(123_456_789L).then().statusCode(412);
        as(sara).body(Map.of("expression", "x"))
                .post("/api/items/" + item + "/filters")
                .then()
                .statusCode(201);
    }

    /** docs/protocol.md §7: a positive integer no grant ever reached is a stale token, even the holder's. */
    @Test
    void aPositiveIntegerBeyondEveryTokenIs412EvenForTheHolder() {
        try (Holding mine = Holding.connect(base, sara)) {
            mine.page(item, "filters");
            for (String beyond : new String[] {"9223372036854775808", "99999999999999999999"}) {
                as(sara).header("Lock-Token", beyond)
                        .body(Map.of("expression", "x"))
                        .post("/api/items/" + item + "/filters")
                        .then()
                        .statusCode(412)
                        // Not a number the client did not send (what it stands for inside the server).
                        .body("message", not(containsString("9223372036854775807")));
            }
        }
    }

    @Test
    void aTokenThatIsNotAPositiveIntegerIs400() {
        for (String bad : new String[] {"abc", "0", "-1", "1.5", ""}) {
            as(sara).header("Lock-Token", bad)
                    .body(Map.of("expression", "x"))
                    .post("/api/items/" + item + "/filters")
                    .then()
                    .statusCode(400);
        }
    }

    private Response addFilter(long token) {
        return as(sara).header("Lock-Token", token)
                .body(Map.of("expression", "x"))
                .post("/api/items/" + item + "/filters");
    }
}
