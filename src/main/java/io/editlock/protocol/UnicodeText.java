package io.editlock.protocol;

/** Text as the contract counts and carries it, for frames and REST bodies alike. */
public final class UnicodeText {

    private UnicodeText() {}

    /**
     * Whether the text is Unicode: JSON may escape half of a surrogate pair alone ({@code "\ud800"}),
     * which UTF-8 cannot carry (it would be stored and sent back as something else), so such text is
     * refused, never altered.
     */
    public static boolean wellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** Letters and symbols that are drawn as nothing: the Hangul fillers and the blank braille pattern. */
    private static final String DRAWN_AS_NOTHING = "\u115F\u1160\u3164\uFFA0\u2800";

    /**
     * Whether the text shows nothing: every code point is a space of some kind (the no-break ones too,
     * which {@link String#isBlank} lets through), a control character, an invisible format character (a
     * zero-width space, a byte order mark), a mark meant to sit on a character that is not there (a lone
     * accent, a variation selector), or a filler drawn as nothing. Such a name or expression would show as
     * none.
     */
    public static boolean blank(String text) {
        return text.codePoints()
                .allMatch(c -> Character.isWhitespace(c)
                        || Character.isSpaceChar(c)
                        || Character.getType(c) == Character.CONTROL
                        || Character.getType(c) == Character.FORMAT
                        || Character.getType(c) == Character.NON_SPACING_MARK
                        || DRAWN_AS_NOTHING.indexOf(c) >= 0);
    }

    /** Characters as the contract counts them (docs/protocol.md §4): code points, so 😀 is one. */
    public static int characters(String text) {
        return text.codePointCount(0, text.length());
    }
}
