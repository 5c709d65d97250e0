package io.editlock.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.editlock.catalog.Entity;
import io.editlock.catalog.InvalidInputException;
import io.editlock.catalog.UnknownIdException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/rest-api.md, how the API reads a number from text: plain JUnit, no server. The routes that read
 * them are proven over HTTP in {@link ConfiguratorApiTest} (path ids), {@link RestLimitsTest}
 * ({@code after}, {@code limit}) and {@link LockTokenHeaderTest} ({@code Lock-Token}).
 */
class ApiNumbersTest {

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvSource({
        "1,1",
        "42,42",
        "007,7",
        "9007199254740991,9007199254740991",
        "00000000000000001,1",
        "000000000000000000000000000009007199254740991,9007199254740991"
    })
    void aPositiveIntegerBelow2To53IsAPathId(String raw, long expected) {
        assertEquals(Optional.of(expected), ApiNumbers.pathId(raw), "the id of path \"" + raw + "\"");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(
            strings = {
                "",
                "0",
                "-1",
                "+1",
                "1.0",
                "12abc",
                "9007199254740992",
                "000000000000000000000009007199254740992",
                "00000000000000000000",
                "\uFF15",
                "\u0661\u0662",
                "1\u0966"
            })
    void anythingElseInAPathNamesNothing(String raw) {
        assertEquals(Optional.empty(), ApiNumbers.pathId(raw), "path \"" + raw + "\" must name no id");
        UnknownIdException unknown = assertThrows(
                UnknownIdException.class,
                () -> ApiNumbers.pathId(Entity.ITEM, raw),
                "path \"" + raw + "\" must be the 404 of an unknown item");
        assertEquals("No item " + raw, unknown.getMessage(), "the 404 must name what the path said");
    }

    @Test
    void anAbsentAfterListsFromTheStart() {
        assertEquals(0, ApiNumbers.after(null), "no after: from the first configurator");
        assertEquals(0, ApiNumbers.after(""), "an empty after: from the first configurator");
        assertEquals(41, ApiNumbers.after("41"), "after=41: the configurators above 41");
        assertEquals(41, ApiNumbers.after("00000000000000000041"), "leading zeros aside, as in a path");
        assertEquals(9007199254740991L, ApiNumbers.after("9007199254740991"), "the largest id");
        assertEquals(0, ApiNumbers.after("0"), "after=0: from the start");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"x", "-1", "\uFF15", "12345678901234567", "9007199254740992", "9999999999999999"})
    void anAfterThatIsNoIdIsRefused(String raw) {
        InvalidInputException refused = assertThrows(
                InvalidInputException.class, () -> ApiNumbers.after(raw), "after=\"" + raw + "\" must be a 400");
        assertEquals(
                "after must be 0 or an id (a positive integer below 2^53)",
                refused.getMessage(),
                "the 400 must say what after is");
    }

    @Test
    void aLimitWithinTheRangeIsThePageSize() {
        assertEquals(100, ApiNumbers.limit(null, 100), "no limit: the largest page");
        assertEquals(100, ApiNumbers.limit("", 100), "an empty limit: the largest page");
        assertEquals(1, ApiNumbers.limit("1", 100), "limit=1");
        assertEquals(100, ApiNumbers.limit("100", 100), "limit=100, the largest page");
        assertEquals(1, ApiNumbers.limit("0000000001", 100), "leading zeros aside, as after's");
        assertEquals(7, ApiNumbers.limit("00000000000000000000007", 100), "however many");
    }

    @Test
    void aQueryParameterIsReadFromTheQueryAsWritten() {
        assertEquals(null, ApiNumbers.once(null, "limit"), "no query");
        assertEquals(null, ApiNumbers.once("after=3", "limit"), "not given");
        assertEquals("5", ApiNumbers.once("after=3&limit=5", "limit"));
        assertEquals("", ApiNumbers.once("limit=", "limit"), "an empty value");
        assertEquals("", ApiNumbers.once("limit", "limit"), "a name alone");
        assertEquals("\uFF15", ApiNumbers.once("limit=%EF%BC%95", "limit"), "decoded, to be refused as no digit");
        assertEquals(null, ApiNumbers.once("LIMIT=2", "limit"), "another parameter");
        for (String twice :
                List.of("limit=1&limit=500", "limit=&limit=2", "limit=2&limit=", "limit=1&after=0&limit=1")) {
            InvalidInputException refused =
                    assertThrows(InvalidInputException.class, () -> ApiNumbers.once(twice, "limit"), twice);
            assertEquals("limit must be given at most once", refused.getMessage());
        }
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"0", "000", "101", "0101", "-1", "x", "\uFF15", "9999999999", "12345678901234567"})
    void aLimitOutOfRangeIsRefused(String raw) {
        InvalidInputException refused = assertThrows(
                InvalidInputException.class, () -> ApiNumbers.limit(raw, 100), "limit=\"" + raw + "\" must be a 400");
        assertEquals("limit must be between 1 and 100", refused.getMessage(), "the 400 must say the range");
    }
}
