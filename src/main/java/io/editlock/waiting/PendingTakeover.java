package io.editlock.waiting;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A take-over request that stands (docs/protocol.md §13), as the scripts describe it in a waiting
 * event's {@code requested} and in read_takeovers' {@code pending}: {@code {f, u, n, h, d, m}}.
 *
 * @param deadline when the consent window ends (epoch ms, the store's clock)
 * @param message the asker's message, empty for none
 */
public record PendingTakeover(
        String field, String askerId, String askerName, String holderId, long deadline, String message) {

    public static PendingTakeover of(JsonNode entry) {
        return new PendingTakeover(
                entry.path("f").asText(),
                entry.path("u").asText(),
                entry.path("n").asText(),
                entry.path("h").asText(),
                entry.path("d").asLong(),
                entry.path("m").asText(""));
    }
}
