package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

import io.editlock.support.DemoLogin;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Set;
import java.util.stream.Stream;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.hamcrest.TypeSafeMatcher;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/rest-api.md, Errors: every error body is JSON with a {@code message}, also the refusals Quarkus
 * makes before any route runs (a method the path does not have, a body or an answer that is not JSON).
 */
@QuarkusTest
class FrameworkRefusalsTest {

    /** A method each path lacks, and the methods it has. */
    private static final String[] ALLOWED = {
        "PUT    | /api/configurators                 | GET, HEAD, OPTIONS, POST",
        "DELETE | /api/configurators                 | GET, HEAD, OPTIONS, POST",
        "POST   | /api/configurators/7               | DELETE, GET, HEAD, OPTIONS, PATCH",
        "GET    | /api/configurators/7/items         | OPTIONS, POST",
        "DELETE | /api/configurators/7/locks         | GET, HEAD, OPTIONS",
        "PUT    | /api/items/3                       | DELETE, GET, HEAD, OPTIONS, PATCH",
        "GET    | /api/items/3/attribute-values      | OPTIONS, POST",
        "POST   | /api/filters/12                    | DELETE, GET, HEAD, OPTIONS, PATCH",
        "POST   | /api/filters/a%2Fb                 | DELETE, GET, HEAD, OPTIONS, PATCH",
        "PUT    | /api/%63onfigurators/5             | DELETE, GET, HEAD, OPTIONS, PATCH",
        "GET    | /api/items/5/%66ilters             | OPTIONS, POST",
        "PUT    | /api/variables/12                  | DELETE, GET, HEAD, OPTIONS, PATCH",
        "GET    | /api/locks/configurator:1          | DELETE, OPTIONS"
    };

    @ParameterizedTest(name = "{0} {1} ({2}, accepting {3}) -> {4}")
    @CsvSource(
            delimiter = '|',
            value = {
                "PUT    | /api/configurators          | application/json | application/json | 405",
                "DELETE | /api/configurators          | application/json | application/json | 405",
                "GET    | /api/locks/configurator:1   | application/json | application/json | 405",
                "POST   | /api/configurators          | text/plain       | application/json | 415",
                "PATCH  | /api/items/1                | text/plain       | application/json | 415",
                "GET    | /api/configurators          | application/json | text/csv         | 406"
            })
    void aRefusalOfQuarkusIsAJsonMessage(String method, String path, String type, String accept, int status) {
        as(DemoLogin.user("Sara"))
                .contentType(type)
                .accept(accept)
                .body("{}")
                .request(method, path)
                .then()
                .statusCode(status)
                .contentType(startsWith("application/json"))
                .body("message", notNullValue());
    }

    /** RFC 9110 §15.5.6: a 405 names the methods the path has (HEAD with GET; OPTIONS on every path). */
    @ParameterizedTest(name = "{0} {1} -> Allow: {2}")
    @MethodSource("allowed")
    void aMethodThePathLacksIsAnsweredWithTheMethodsItHas(String method, String path, String allowed) {
        as(DemoLogin.user("Sara"))
                .urlEncodingEnabled(false)
                .contentType("application/json")
                .body("{}")
                .request(method, path)
                .then()
                .statusCode(405)
                .header("Allow", allowedIn(allowed));
    }

    static Stream<Arguments> allowed() {
        return Stream.of(ALLOWED)
                .map(row -> Arguments.of((Object[])
                        Stream.of(row.split("\\|")).map(String::strip).toArray(String[]::new)));
    }

    /** The header's methods in any order and spacing, as exactly these. */
    private static Matcher<String> allowedIn(String allowed) {
        Set<String> expected = Set.of(allowed.split(",\\s*"));
        return new TypeSafeMatcher<>() {
            @Override
            protected boolean matchesSafely(String header) {
                return Set.of(header.split(",\\s*")).equals(expected);
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("Allow naming exactly " + expected);
            }
        };
    }
}
