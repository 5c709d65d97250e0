package io.editlock.ops;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every {@code editlock_*} metric that docs/operations.md lists is on {@code /q/metrics} of a node that
 * has served nothing yet: an alert on a rate needs its series before the first event, and an operator
 * reading the docs must find each name. Its own profile, so that the node is new.
 */
@QuarkusTest
@TestProfile(MetricsFromTheStartTest.NewNode.class)
class MetricsFromTheStartTest {

    public static class NewNode implements QuarkusTestProfile {}

    private static final Pattern DOCUMENTED = Pattern.compile("^\\| `(editlock_[a-z_]+)(?:\\{[a-z]+\\})?` \\|");

    @Test
    void everyDocumentedMetricIsThereBeforeTheFirstRequest() throws IOException {
        List<String> documented = Files.readAllLines(Path.of("docs/operations.md")).stream()
                .map(DOCUMENTED::matcher)
                .filter(Matcher::find)
                .map(matcher -> matcher.group(1))
                .toList();
        assertFalse(documented.isEmpty(), "docs/operations.md lists the metrics in a table");

        String exposed = given().when()
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        List<String> missing = documented.stream()
                .filter(name -> exposed.lines().noneMatch(line -> isSampleOf(line, name)))
                .toList();
        assertEquals(List.of(), missing, "documented, not exposed on a new node");
    }

    /** A sample line of the metric: its own series, or a histogram's count. */
    private static boolean isSampleOf(String line, String name) {
        return line.startsWith(name + "{") || line.startsWith(name + " ") || line.startsWith(name + "_count");
    }

    /**
     * docs/operations.md: every release reason and every limit is there from the start. Not asserted at
     * 0: the store this node shares with the other tests may hold leases that ran out, which its reaper
     * releases (reason expired) before this reads the figures.
     */
    @Test
    void everyReleaseReasonAndLimitIsThereFromTheStart() {
        String exposed = given().when()
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        for (String reason :
                List.of("unlock", "disconnect", "replaced", "expired", "idle", "admin", "deleted", "taken-over")) {
            assertFalse(Double.isNaN(sample(exposed, "editlock_lock_releases_total", "reason", reason)), reason);
        }
        for (String limit : List.of("sockets", "watches", "frames", "unsent", "rest-writes", "lock-requests")) {
            assertFalse(Double.isNaN(sample(exposed, "editlock_limit_refusals_total", "limit", limit)), limit);
        }
    }

    /** The value of the series {@code name} whose tag {@code tag} is {@code value}; NaN when there is none. */
    private static double sample(String body, String name, String tag, String value) {
        String label = tag + "=\"" + value + "\"";
        return body.lines()
                .filter(line -> line.startsWith(name + "{") && line.contains(label))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElse(Double.NaN);
    }
}
