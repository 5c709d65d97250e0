package io.editlock.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.editlock.catalog.InvalidInputException;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §7, the {@code Lock-Token} header on its own: plain JUnit, no server. Absent is no
 * token; present, it must be a positive integer (else 400). Whether the token is that of a lock the
 * writer holds is the store's decision ({@link LockTokenTest}).
 */
class LockTokenHeaderTest {

    private static final String REFUSAL = "Lock-Token must be a positive integer (the token of a lock you hold)";

    @Test
    void anAbsentHeaderIsNoToken() {
        assertEquals(
                OptionalLong.empty(), LockGuardFilter.lockToken(null), "no Lock-Token header: a write without a token");
    }

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvSource(
            delimiter = '|',
            ignoreLeadingAndTrailingWhitespace = false,
            value = {"1|1", "42|42", "007|7", " 42|42", "42 |42", "\t42\t|42", "999999999999999999|999999999999999999"})
    void aPositiveIntegerIsTheToken(String header, long expected) {
        assertEquals(
                OptionalLong.of(expected), LockGuardFilter.lockToken(header), "the token of header \"" + header + "\"");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(
            strings = {
                "",
                "   ",
                "0",
                "000",
                "-1",
                "+1",
                "1.0",
                "1e3",
                "0x1F",
                "12abc",
                "1 2",
                "1,2",
                "1000000000000000000",
                "9223372036854775808",
                "Bearer 12",
                "\uFF11\uFF12",
                "\u0661\u0662",
                "1\u0662"
            })
    void anythingElseIsRefused(String header) {
        InvalidInputException refused = assertThrows(
                InvalidInputException.class,
                () -> LockGuardFilter.lockToken(header),
                "Lock-Token \"" + header + "\" must be refused with 400");
        assertEquals(REFUSAL, refused.getMessage(), "the 400 must say what a Lock-Token is");
    }
}
