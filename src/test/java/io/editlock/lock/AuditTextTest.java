package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Plain JUnit, no Quarkus: how user-supplied text is written into an audit line. */
class AuditTextTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '\'',
            value = {
                "plain          | Sara                    | \"Sara\"",
                "spaces kept    | Sara Lind               | \"Sara Lind\"",
                "non-ASCII kept | Zoë 李                  | \"Zoë 李\"",
                "quote          | Sa\"ra                  | \"Sa\\\"ra\"",
                "backslash      | a\\b                    | \"a\\\\b\"",
                "empty          | ''                      | \"\"",
            })
    void quotesAndEscapes(String name, String value, String expected) {
        assertEquals(expected, AuditText.quote(value), name);
    }

    @ParameterizedTest(name = "U+{0}")
    @CsvSource({
        "000a, \\n",
        "000d, \\r",
        "0009, \\t",
        "0000, \\u0000",
        "001b, \\u001b",
        "007f, \\u007f",
        "0085, \\u0085",
        "2028, \\u2028",
        "2029, \\u2029",
        "202e, \\u202e",
        "2066, \\u2066",
        "200b, \\u200b",
        "feff, \\ufeff"
    })
    void escapesEveryCharacterThatCouldBreakOrDisguiseALine(String hex, String escaped) {
        String c = String.valueOf((char) Integer.parseInt(hex, 16));
        assertEquals("\"a" + escaped + "b\"", AuditText.quote("a" + c + "b"), "U+" + hex + " must be escaped");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "tag character U+E0041        | e0041 | \\udb40\\udc41",
                "language tag U+E0001         | e0001 | \\udb40\\udc01",
                "shorthand format U+1BCA0     | 1bca0 | \\ud82f\\udca0",
            })
    void escapesFormatCharactersBeyondTheBasicPlaneAsJsonDoes(String name, String hex, String escaped) {
        String c = Character.toString(Integer.parseInt(hex, 16));
        assertEquals("\"a" + escaped + "b\"", AuditText.quote("a" + c + "b"), name);
    }

    @Test
    void keepsOtherCharactersBeyondTheBasicPlane() {
        assertEquals("\"Sara \uD83D\uDE00\"", AuditText.quote("Sara \uD83D\uDE00"));
    }

    @Test
    void escapesHalfASurrogatePair() {
        assertEquals("\"a\\ud800b\\udc00\"", AuditText.quote("a\ud800b\udc00"));
    }

    @Test
    void nullIsADash() {
        assertEquals("-", AuditText.quote(null));
    }

    @Test
    void forgedLineStaysInsideItsField() {
        String quoted =
                AuditText.quote("Mallory\" token=1\n12:00:00 INFO  [editlock.audit] grant resource=configurator:1");
        assertEquals("\"Mallory\\\" token=1\\n12:00:00 INFO  [editlock.audit] grant resource=configurator:1\"", quoted);
    }
}
