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
            value = {
                "1|1",
                "42|42",
                "007|7",
                " 42|42",
                "42 |42",
                "\t42\t|42",
                "999999999999999999|999999999999999999",
                "9223372036854775806|9223372036854775806"
            })
    void aPositiveIntegerIsTheToken(String header, long expected) {
        assertEquals(
                OptionalLong.of(expected), LockGuardFilter.lockToken(header), "the token of header \"" + header + "\"");
    }

    /** docs/protocol.md §7: a positive integer beyond every token is well-formed; it names no lock (412, not 400). */
    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(
            strings = {
                "9223372036854775807",
                "9223372036854775808",
                "18446744073709551616",
                "00012345678901234567890123"
            })
    void aPositiveIntegerBeyondEveryTokenNamesNoLock(String header) {
        assertEquals(
                OptionalLong.of(Long.MAX_VALUE),
                LockGuardFilter.lockToken(header),
                "Lock-Token \"" + header + "\" is a positive integer that no grant reaches");
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
