package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.Holding;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §3: {@code DELETE /api/configurators/{id}} is allowed to an admin and to the user
 * who created that configurator ({@code createdBy} in its representation); anyone else gets 403,
 * after 404 (an unknown configurator is 404 for everybody) and before the guard's 423 and 412.
 */
@QuarkusTest
class DeleteConfiguratorPermissionTest {

    private static final String UNKNOWN = "999999999";

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    private TestUser sara;
    private TestUser omar;

    @BeforeEach
    void users() {
        sara = DemoLogin.user("Sara");
        omar = DemoLogin.user("Omar");
    }

    @Test
    void createdByNamesTheCreatorInEveryRepresentation() {
        long c = as(sara).body(Map.of("name", "mine"))
                .post("/api/configurators")
                .then()
                .statusCode(201)
                .body("createdBy", equalTo(sara.id()))
                .extract()
                .jsonPath()
                .getLong("id");
        as(omar).get("/api/configurators/" + c).then().statusCode(200).body("createdBy", equalTo(sara.id()));
        as(omar).get("/api/configurators?after=" + (c - 1) + "&limit=1")
                .then()
                .statusCode(200)
                .body("find { it.id == " + c + " }.createdBy", equalTo(sara.id()));
        as(sara).body(Map.of("name", "renamed"))
                .patch("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .body("createdBy", equalTo(sara.id()));
    }

    @Test
    void createdByInTheBodyIsIgnored() {
        long c = as(omar).body(Map.of("name", "forged", "createdBy", sara.id()))
                .post("/api/configurators")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getLong("id");
        as(omar).get("/api/configurators/" + c).then().body("createdBy", equalTo(omar.id()));
        as(sara).delete("/api/configurators/" + c).then().statusCode(403);
    }

    @Test
    void creatorMayDeleteIt() {
        long c = Api.configurator(sara);
        as(sara).delete("/api/configurators/" + c).then().statusCode(204);
        as(sara).get("/api/configurators/" + c).then().statusCode(404);
    }

    @Test
    void adminMayDeleteAnyonesConfigurator() {
        long c = Api.configurator(sara);
        as(DemoLogin.user("Ada", "admin"))
                .delete("/api/configurators/" + c)
                .then()
                .statusCode(204);
        as(sara).get("/api/configurators/" + c).then().statusCode(404);
    }

    @Test
    void anyoneElseGets403AndNothingChanges() {
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        String before = as(sara).get("/api/configurators/" + c).asString();

        as(omar).delete("/api/configurators/" + c)
                .then()
                .statusCode(403)
                .body("message", equalTo("Only its creator or an admin may delete configurator " + c));

        assertEquals(
                before, as(sara).get("/api/configurators/" + c).asString(), "a refused delete must change nothing");
        as(sara).get("/api/items/" + item).then().statusCode(200);
    }

    @Test
    void nonAdminRoleIsNotEnough() {
        long c = Api.configurator(sara);
        as(DemoLogin.user("Eve", "editor", "auditor"))
                .delete("/api/configurators/" + c)
                .then()
                .statusCode(403);
    }

    @Test
    void configuratorWithoutCreatorIsAnAdminsToDelete() {
        long c = Fixtures.configurator(store);
        as(sara).get("/api/configurators/" + c).then().statusCode(200).body("createdBy", nullValue());
        as(sara).delete("/api/configurators/" + c).then().statusCode(403);
        as(DemoLogin.user("Ada", "admin"))
                .delete("/api/configurators/" + c)
                .then()
                .statusCode(204);
    }

    @Test
    void unknownConfiguratorIs404ForEverybody() {
        as(omar).delete("/api/configurators/" + UNKNOWN).then().statusCode(404);
        as(omar).delete("/api/configurators/not-an-id").then().statusCode(404);
    }

    @Test
    void malformedLockTokenIs400BeforeTheRefusal() {
        long c = Api.configurator(sara);
        as(omar).header("Lock-Token", "abc")
                .delete("/api/configurators/" + c)
                .then()
                .statusCode(400);
    }

    @Test
    void refusalComesBeforeTheGuards423And412() {
        long c = Api.configurator(sara);
        try (Holding holder = Holding.connect(base, DemoLogin.user("Wu"))) {
            long token = holder.configurator(c).path("token").asLong();
            as(omar).delete("/api/configurators/" + c).then().statusCode(403);
            as(omar).header("Lock-Token", String.valueOf(token))
                    .delete("/api/configurators/" + c)
                    .then()
                    .statusCode(403);
            as(sara).delete("/api/configurators/" + c).then().statusCode(423);
        }
        as(sara).get("/api/configurators?after=" + (c - 1) + "&limit=1").then().body("id", hasItem((int) c));
    }

    @Test
    void creatorsDeleteIsStillGuarded() {
        long c = Api.configurator(sara);
        try (Holding holder = Holding.connect(base, omar);
                WsClient ignored = WsClient.connect(base, sara.token())) {
            holder.variables(c);
            as(sara).delete("/api/configurators/" + c).then().statusCode(423).body("lockedBy", equalTo("Omar"));
        }
    }
}
