package io.editlock.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * Reading and awaiting the frames of docs/protocol.md §4 in the tests of {@code /locking}.
 *
 * <p>A test that proves that something did NOT arrive first waits for a later frame that the relay
 * sends after it: the relay sends one change's frames in order (its {@code lock-released} and
 * {@code lock-lost} before its {@code lock-updated}), and changes in the order Redis published them.
 * Direct replies keep the order of requests. So the absence is not a matter of timing.
 */
public final class LockFrames {

    private LockFrames() {}

    /** Exactly one frame carries the ref. Replies keep the order of requests, so a later reply is a barrier. */
    public static void assertExactlyOneReply(WsClient client, String ref) {
        client.request("touch", Map.of());
        assertEquals(
                1,
                client.repliesTo(ref).size(),
                "request " + ref + " must get exactly one direct reply: " + client.received());
    }

    /** Waits for a lock-updated broadcast of this configurator with exactly these lock types. */
    public static JsonNode awaitState(WsClient client, long configuratorId, Set<String> lockTypes) {
        return client.awaitEvent(isEvent("lock-updated")
                .and(f -> !f.has("ref"))
                .and(f -> f.path("data").path("configuratorId").asLong() == configuratorId)
                .and(f -> types(f.path("data").path("locks")).equals(lockTypes)));
    }

    public static void assertResource(JsonNode resource, LockKind kind, long configurator, long item) {
        assertEquals(kind.type, resource.path("type").asText(), "resource.type: " + resource);
        assertEquals(configurator, resource.path("configuratorId").asLong(), "resource.configuratorId: " + resource);
        if (kind == LockKind.ITEM_PAGE) {
            assertEquals(item, resource.path("itemId").asLong(), "resource.itemId: " + resource);
            assertEquals("filters", resource.path("page").asText(), "resource.page: " + resource);
        } else {
            assertFalse(resource.has("itemId") || resource.has("page"), "itemId/page only for item pages: " + resource);
        }
    }

    /** The resource types of a {@code locks} array. */
    public static Set<String> types(JsonNode locks) {
        return StreamSupport.stream(locks.spliterator(), false)
                .map(l -> l.path("resource").path("type").asText())
                .collect(Collectors.toSet());
    }

    /** Whether the frame is about this configurator (a state or a lock of it). */
    public static boolean mentions(JsonNode frame, long configuratorId) {
        JsonNode data = frame.path("data");
        return data.path("configuratorId").asLong() == configuratorId
                || data.path("resource").path("configuratorId").asLong() == configuratorId;
    }

    public static Predicate<JsonNode> isEvent(String event) {
        return frame -> event.equals(frame.path("event").asText());
    }

    public static String event(JsonNode frame) {
        return frame.path("event").asText();
    }
}
