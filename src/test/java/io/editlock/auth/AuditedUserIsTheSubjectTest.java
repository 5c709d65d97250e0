package io.editlock.auth;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.Api;
import io.editlock.support.AuditLines;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.build.Jwt;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §3: a user is their token's {@code sub}. Identity providers let users pick their
 * {@code preferred_username} (and some their {@code upn}), so the audit log names the user by
 * {@code sub} on every line: a user who calls themselves by another's id is still logged as themselves.
 */
@QuarkusTest
class AuditedUserIsTheSubjectTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void aRefusedWriteIsAuditedUnderTheSubjectNotTheUsername() {
        TestUser omar = DemoLogin.user("Omar");
        long c = Api.configurator(omar);
        TestUser mallory = calledBy("mallory-" + UUID.randomUUID(), omar.id());
        try (WsClient holder = WsClient.connect(base, omar.token());
                AuditLines audit = AuditLines.capture()) {
            holder.welcome();
            holder.request("lock-configurator", Map.of("configuratorId", c));
            as(mallory)
                    .body(Map.of("name", "x"))
                    .patch("/api/configurators/" + c)
                    .then()
                    .statusCode(423);

            String line = audit.await("Mallory's refused write", text -> text.startsWith("refuse-write status=423"));
            String logged = "refuse-write status=423 target=\"PATCH /api/configurators/" + c + "\" user=\""
                    + mallory.id() + "\" ";
            assertEquals(logged, line.substring(0, Math.min(line.length(), logged.length())), line);
        }
    }

    @Test
    void aBrokenLockIsAuditedUnderTheAdminsSubject() {
        TestUser omar = DemoLogin.user("Omar");
        long c = Api.configurator(omar);
        TestUser admin = calledBy("admin-" + UUID.randomUUID(), "root", "admin");
        try (WsClient holder = WsClient.connect(base, omar.token());
                AuditLines audit = AuditLines.capture()) {
            holder.welcome();
            holder.request("lock-configurator", Map.of("configuratorId", c));
            as(admin).delete("/api/locks/configurator:" + c).then().statusCode(204);

            assertEquals(
                    "admin-break resource=configurator:" + c + " holder=\"" + omar.id() + "\" admin=\"" + admin.id()
                            + "\"",
                    audit.await("the admin's break-lock", text -> text.startsWith("admin-break")));
        }
    }

    /** A token whose {@code sub} is {@code userId} and whose usernames ({@code upn}, {@code preferred_username}) are {@code username}. */
    private static TestUser calledBy(String userId, String username, String... roles) {
        var claims = Jwt.issuer("editlock")
                .audience("editlock")
                .subject(userId)
                .upn(username)
                .preferredUserName(username)
                .claim("name", "Mallory")
                .groups(Set.of(roles))
                .expiresIn(600);
        String token = DemoKeysConfigSourceFactory.generatedSigningKey()
                .map(claims::sign)
                .orElseGet(claims::sign);
        return new TestUser(userId, "Mallory", token);
    }
}
