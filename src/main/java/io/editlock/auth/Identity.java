package io.editlock.auth;

import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** Who a socket or request belongs to, taken only from the verified token (docs/protocol.md §3). */
public record Identity(String userId, String userName, Set<String> roles) {

    public static final String ADMIN = "admin";

    public static Identity of(JsonWebToken token) {
        String name = firstNonBlank(token.getClaim("name"), token.getClaim("preferred_username"), token.getSubject());
        return new Identity(
                token.getSubject(), name, token.getGroups() == null ? Set.of() : Set.copyOf(token.getGroups()));
    }

    /** Whether the token names a user: a {@code sub} that is not blank. */
    public static boolean namesUser(JsonWebToken token) {
        return token.getSubject() != null && !token.getSubject().isBlank();
    }

    public boolean isAdmin() {
        return roles.contains(ADMIN);
    }

    private static String firstNonBlank(Object... candidates) {
        for (Object candidate : candidates) {
            if (candidate != null && !candidate.toString().isBlank()) {
                return candidate.toString();
            }
        }
        return "";
    }
}
