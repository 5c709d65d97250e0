package io.editlock.rest;

import static io.restassured.RestAssured.given;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/protocol.md §8: every route of every kind of entry, inherited from one base, still requires a user. */
@QuarkusTest
class EntryRoutesTest {

    private static final List<String> ENTRIES =
            List.of("/api/filters/1", "/api/dependencies/1", "/api/attribute-values/1", "/api/variables/1");

    @Test
    void everyEntryRouteWithoutATokenIs401() {
        for (String entry : ENTRIES) {
            given().get(entry).then().statusCode(401);
            given().contentType(ContentType.JSON)
                    .body(Map.of("name", "x"))
                    .patch(entry)
                    .then()
                    .statusCode(401);
            given().delete(entry).then().statusCode(401);
        }
    }
}
