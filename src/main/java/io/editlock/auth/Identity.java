package io.editlock.auth;

import io.editlock.protocol.UnicodeText;
import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import java.security.Principal;
import java.time.Instant;
import java.util.Set;
import org.eclipse.microprofile.jwt.Claims;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** Who a socket or request belongs to, taken only from the verified token (docs/protocol.md §3). */
public record Identity(String userId, String userName, Set<String> roles) {

    public static final String ADMIN = "admin";

    /** The end of the year 9999: a token's time beyond it is none that an issuer means. */
    private static final long LATEST_SECONDS =
            Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

    /**
     * The user id of an authenticated caller: its token's {@code sub}. A principal's own name may be a
     * username ({@code upn}, {@code preferred_username}) that users can choose, so it is not used.
     */
    public static String userIdOf(Principal caller) {
        return caller instanceof JsonWebToken token ? of(token).userId() : caller.getName();
    }

    public static Identity of(JsonWebToken token) {
        String name = firstNonBlank(token.getClaim("name"), token.getClaim("preferred_username"), token.getSubject());
        return new Identity(
                token.getSubject(), name, token.getGroups() == null ? Set.of() : Set.copyOf(token.getGroups()));
    }

    /**
     * Whether the token names a user: a {@code sub} that is not blank, and is text. Blank counts every
     * space, the no-break spaces too, which {@link String#isBlank} lets through and which show as no
     * name. A lone UTF-16 surrogate is no text: UTF-8 cannot carry it, so stored it would become
     * another user's id (the one with a {@code ?} in its place).
     */
    public static boolean namesUser(JsonWebToken token) {
        return isNamingText(token.getSubject());
    }

    private static boolean isNamingText(String text) {
        return text != null && UnicodeText.wellFormed(text) && !UnicodeText.blank(text);
    }

    /**
     * Whether the token is still in force at {@code now}: its {@code exp} is taken as it stands, by
     * this server's clock. The parser allows {@code mp.jwt.verify.clock.skew} past {@code exp} too;
     * the skew is meant for an issuer whose clock runs ahead ({@code iat}, {@code nbf}), not for
     * tokens that have ended (docs/protocol.md §3).
     */
    public static boolean inForce(JsonWebToken token, Instant now) {
        long expires = token.getExpirationTime();
        // Compared as numbers: a token signed with an end past any calendar must be refused, not
        // overflow Instant (or the milliseconds the socket keeps its end in).
        return expires <= LATEST_SECONDS && now.getEpochSecond() < expires;
    }

    /**
     * Whether the token was issued by {@code latest} (now plus the clock skew allowed an issuer whose
     * clock runs ahead). The parser checks {@code nbf} against the skew but leaves {@code iat} alone: a
     * token that claims to be issued later than that was not made by a clock to trust. One without
     * {@code iat} passes.
     */
    public static boolean issuedBy(JsonWebToken token, Instant latest) {
        Object iat = token.getClaim(Claims.iat.name());
        long seconds =
                iat instanceof JsonNumber number ? number.longValue() : iat instanceof Number n ? n.longValue() : 0;
        return seconds <= latest.getEpochSecond();
    }

    public boolean isAdmin() {
        return roles.contains(ADMIN);
    }

    /**
     * The first candidate that is a text naming someone, as {@link #namesUser} judges {@code sub}. A
     * claim that is a number, an object, an array or a boolean is no name: shown, it would read as
     * JSON ({@code "5"}, {@code {"first":"Sara"}}), so the next candidate is the name then.
     */
    private static String firstNonBlank(Object... candidates) {
        for (Object candidate : candidates) {
            String text = candidate instanceof String string
                    ? string
                    : candidate instanceof JsonString json ? json.getString() : null;
            if (isNamingText(text)) {
                return text;
            }
        }
        return "";
    }
}
