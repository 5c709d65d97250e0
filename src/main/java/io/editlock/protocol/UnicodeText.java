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

    /** Characters as the contract counts them (docs/protocol.md §4): code points, so 😀 is one. */
    public static int characters(String text) {
        return text.codePointCount(0, text.length());
    }
}
