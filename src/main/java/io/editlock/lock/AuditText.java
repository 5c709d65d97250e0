package io.editlock.lock;

/**
 * User-supplied text (ids and names from tokens, request paths, header values) as it goes into an
 * audit line: always in double quotes, with quotes, backslashes and every control, format or
 * line-separator character escaped JSON-style. So no value can end its line, start a forged one, add
 * a field of its own, or hide text with bidirectional overrides.
 */
public final class AuditText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private AuditText() {}

    /** {@code "value"}, escaped; {@code -} for null. */
    public static String quote(String value) {
        if (value == null) {
            return "-";
        }
        int first = firstToEscape(value);
        if (first < 0) {
            return '"' + value + '"';
        }
        StringBuilder out = new StringBuilder(value.length() + 16).append('"').append(value, 0, first);
        for (int i = first; i < value.length(); ) {
            int c = value.codePointAt(i);
            int length = Character.charCount(c);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (needsEscape(c)) {
                        // A character beyond U+FFFF as its two UTF-16 halves, as JSON writes it.
                        for (int j = i; j < i + length; j++) {
                            appendEscaped(out, value.charAt(j));
                        }
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
            i += length;
        }
        return out.append('"').toString();
    }

    private static void appendEscaped(StringBuilder out, char c) {
        out.append("\\u")
                .append(HEX[c >> 12 & 0xF])
                .append(HEX[c >> 8 & 0xF])
                .append(HEX[c >> 4 & 0xF])
                .append(HEX[c & 0xF]);
    }

    private static int firstToEscape(String value) {
        for (int i = 0; i < value.length(); ) {
            int c = value.codePointAt(i);
            if (c == '"' || c == '\\' || needsEscape(c)) {
                return i;
            }
            i += Character.charCount(c);
        }
        return -1;
    }

    /**
     * C0/C1 controls, DEL, Unicode format and separator characters (U+2028, bidi overrides, the tag
     * characters beyond U+FFFF, …), and half a surrogate pair, which no log encoding can carry.
     */
    private static boolean needsEscape(int c) {
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
            return true;
        }
        if (c < 0xA0) {
            return false;
        }
        int type = Character.getType(c);
        return type == Character.FORMAT
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.SURROGATE;
    }
}
