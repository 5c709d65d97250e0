package io.editlock.rest;

/**
 * Numbers the REST API reads from text (path ids, {@code after}, {@code limit}, {@code Lock-Token}).
 * {@link Character#isDigit} and {@link Long#parseLong} take any Unicode digit, so a full-width
 * {@code "５"} would name 5; only {@code 0-9} are digits of the API.
 */
final class AsciiDigits {

    private AsciiDigits() {}

    /** @return whether the text is non-empty and all {@code 0-9} */
    static boolean only(String text) {
        return !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
