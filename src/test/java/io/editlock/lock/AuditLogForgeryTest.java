package io.editlock.lock;

import static io.editlock.support.Api.as;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.LogToFile;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The audit log cannot be forged: a user whose id and name (both from the token) carry a line break
 * and a whole fake audit line gets exactly the audit lines their actions cause, each one line, and
 * a reader that splits the log into lines and fields finds no forged line and no forged field. Read
 * from the log file as a log pipeline would.
 */
@QuarkusTest
@TestProfile(LogToFile.class)
class AuditLogForgeryTest {

    /** A fake audit line: an admin breaking a lock on a configurator that does not exist. */
    private static final String FORGED =
            "12:00:00,000 INFO  [editlock.audit] admin-break resource=configurator:999999999 admin=\"root\"";

    @TestHTTPResource("/")
    URI base;

    @Test
    void userSuppliedTextCannotWriteALineOrAFieldOfTheAuditLog() throws IOException {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        String id = "m-" + marker + "\n" + FORGED;
        String name = "Mallory\" token=1\u2028\r\n" + FORGED;
        TestUser mallory = new TestUser(id, name, DemoLogin.token(id, name));
        TestUser omar = DemoLogin.user("Omar");
        long c = Api.configurator(omar);
        try (WsClient evil = WsClient.connect(base, mallory.token());
                WsClient other = WsClient.connect(base, omar.token())) {
            evil.welcome();
            assertEquals(
                    "lock-acquired",
                    evil.request("lock-configurator", Map.of("configuratorId", c))
                            .path("event")
                            .asText());
            assertEquals(
                    "lock-failed",
                    other.request("lock-configurator", Map.of("configuratorId", c))
                            .path("event")
                            .asText());
            as(omar).body(Map.of("name", "x"))
                    .patch("/api/configurators/" + c)
                    .then()
                    .statusCode(423);
            assertEquals(
                    "lock-released",
                    evil.request("unlock-configurator", Map.of("configuratorId", c))
                            .path("event")
                            .asText());
        }

        List<String> ours =
                await().atMost(Duration.ofSeconds(10)).until(() -> auditLinesAbout(marker), lines -> lines.size() >= 4);

        for (String line : Files.readAllLines(LogToFile.LOG, StandardCharsets.UTF_8)) {
            assertFalse(line.startsWith("12:00:00,000"), "a user wrote a line of their own into the log: " + line);
            if (line.contains("[editlock.audit]")) {
                Map<String, String> fields = fields(line);
                assertFalse(
                        "configurator:999999999".equals(fields.get("resource")),
                        "a forged audit line was read as real: " + line);
                assertFalse("1".equals(fields.get("token")), "a forged field was read as real: " + line);
            }
        }
        List<String> actions = ours.stream()
                .map(line -> line.substring(line.indexOf("] ") + 2).split(" ")[0])
                .sorted()
                .toList();
        assertEquals(
                List.of("grant", "refuse", "refuse-write", "release"), actions, "one line per action of hers: " + ours);
        for (String line : ours) {
            Map<String, String> fields = fields(line);
            assertEquals(
                    "configurator:" + c,
                    fields.get("resource") != null ? fields.get("resource") : fields.get("blocked-by"),
                    "each line is about the real configurator: " + line);
            String user = fields.containsKey("holder") ? fields.get("holder") : fields.get("user");
            assertEquals(mallory.id(), user, "her id, read back whole from the quoted field: " + line);
        }
        Map<String, String> grant = fields(ours.stream()
                .filter(line -> line.contains("] grant "))
                .findFirst()
                .orElseThrow());
        assertEquals(mallory.name(), grant.get("name"), "her name, read back whole");
        assertTrue(grant.get("token").matches("\\d+"), "the real fencing token: " + grant);
    }

    private static List<String> auditLinesAbout(String marker) throws IOException {
        if (!Files.exists(LogToFile.LOG)) {
            return List.of();
        }
        return Files.readAllLines(LogToFile.LOG, StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("[editlock.audit]") && line.contains(marker))
                .toList();
    }

    /** The fields of an audit line: key=value or key="quoted, with JSON-style escapes". */
    private static Map<String, String> fields(String line) {
        String text = line.substring(line.indexOf("[editlock.audit] ") + "[editlock.audit] ".length());
        Map<String, String> fields = new LinkedHashMap<>();
        int i = text.indexOf(' ') + 1;
        while (i > 0 && i < text.length()) {
            int eq = text.indexOf('=', i);
            if (eq < 0) {
                throw new AssertionError("not a key=value field at " + i + " in: " + line);
            }
            String key = text.substring(i, eq);
            StringBuilder value = new StringBuilder();
            int j = eq + 1;
            if (j < text.length() && text.charAt(j) == '"') {
                for (j++; j < text.length() && text.charAt(j) != '"'; j++) {
                    char ch = text.charAt(j);
                    if (ch == '\\') {
                        char next = text.charAt(++j);
                        switch (next) {
                            case 'n' -> value.append('\n');
                            case 'r' -> value.append('\r');
                            case 't' -> value.append('\t');
                            case 'u' -> {
                                value.append((char) Integer.parseInt(text.substring(j + 1, j + 5), 16));
                                j += 4;
                            }
                            default -> value.append(next);
                        }
                    } else {
                        value.append(ch);
                    }
                }
                if (j >= text.length()) {
                    throw new AssertionError("an unterminated quoted field in: " + line);
                }
                j++;
            } else {
                while (j < text.length() && text.charAt(j) != ' ') {
                    value.append(text.charAt(j++));
                }
            }
            fields.put(key, value.toString());
            i = j + 1;
        }
        return fields;
    }
}
