package io.editlock.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Turns a text frame into a {@link ClientRequest}, or says exactly what is wrong with it. Never
 * touches the store. {@code null} counts as absent; names are case-sensitive.
 */
@ApplicationScoped
public class FrameDecoder {

    private static final int MAX_REF = 64;
    public static final String BEYOND_LIMITS =
            "the frame holds a number of more than 1000 digits or nests deeper than 1000 levels";
    /**
     * Skips what the tree refused to build: the frame limit bounds the scan, and skipping never turns
     * digits into a number.
     */
    private static final JsonFactory UNBOUNDED_SCAN = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxNestingDepth(Integer.MAX_VALUE)
                    .build())
            .build();

    private static final int MAX_RESUME_TOKEN = 256;

    private final ObjectMapper json;

    public FrameDecoder(ObjectMapper json) {
        this.json = json;
    }

    /** Lock and unlock events by name: which resource they are about. */
    private static final Map<String, BiFunction<String, Resource, ClientRequest>> LOCK_EVENTS = Map.of(
            ClientEvents.LOCK_CONFIGURATOR, ClientRequest.Lock::new,
            ClientEvents.LOCK_VARIABLES, ClientRequest.Lock::new,
            ClientEvents.LOCK_ITEM_SUBRESOURCE, ClientRequest.Lock::new,
            ClientEvents.UNLOCK_CONFIGURATOR, ClientRequest.Unlock::new,
            ClientEvents.UNLOCK_VARIABLES, ClientRequest.Unlock::new,
            ClientEvents.UNLOCK_ITEM_SUBRESOURCE, ClientRequest.Unlock::new);

    public ClientRequest decode(String frame) {
        ClientRequest plain = decodePlain(frame);
        if (plain != null) {
            return plain;
        }
        JsonNode root;
        try {
            root = json.readTree(frame);
        } catch (StreamConstraintsException e) {
            return new ClientRequest.Invalid(refBeyondLimits(frame), BEYOND_LIMITS);
        } catch (JsonProcessingException e) {
            return new ClientRequest.Invalid(null, "the frame is not JSON");
        }
        if (root == null || !root.isObject()) {
            return new ClientRequest.Invalid(null, "the frame must be a JSON object {event, data, ref}");
        }
        JsonNode refNode = present(root.get("ref"));
        if (refNode != null
                && (!refNode.isTextual()
                        || UnicodeText.characters(refNode.textValue()) > MAX_REF
                        || !UnicodeText.wellFormed(refNode.textValue()))) {
            return new ClientRequest.Invalid(null, "ref must be a string of at most " + MAX_REF + " characters");
        }
        String ref = refNode == null ? null : refNode.textValue();
        try {
            return decode(root, ref);
        } catch (BadField e) {
            return new ClientRequest.Invalid(ref, e.getMessage());
        }
    }

    /**
     * The ref of a frame that is JSON but beyond what the tree is built from (a number of more than
     * 1,000 digits, nesting deeper than 1,000 levels): read by a scan that builds nothing, so that its
     * error still answers the request it belongs to. Null when it has no valid ref, as for any frame.
     */
    private static String refBeyondLimits(String frame) {
        String ref = null;
        try (JsonParser parser = UNBOUNDED_SCAN.createParser(frame)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                boolean isRef = parser.currentName().equals("ref");
                JsonToken value = parser.nextToken();
                if (isRef) {
                    // The tree takes the last of repeated fields; so does this.
                    ref = value == JsonToken.VALUE_STRING && UnicodeText.characters(parser.getText()) <= MAX_REF
                            ? parser.getText()
                            : null;
                } else {
                    parser.skipChildren();
                }
            }
        } catch (IOException e) {
            return null;
        }
        return ref;
    }

    /**
     * A request that arrived as an event name and its data rather than a frame (a Socket.IO event,
     * docs/protocol.md §12): the same rules, without a ref.
     */
    public ClientRequest decode(String event, JsonNode data) {
        ObjectNode root = json.createObjectNode();
        root.put("event", event);
        root.set("data", data);
        try {
            return decode(root, null);
        } catch (BadField e) {
            return new ClientRequest.Invalid(null, e.getMessage());
        }
    }

    private ClientRequest decode(JsonNode root, String ref) {
        JsonNode eventNode = present(root.get("event"));
        if (eventNode == null || !eventNode.isTextual()) {
            throw new BadField("event must be a string");
        }
        String event = eventNode.textValue();
        JsonNode data = present(root.get("data"));
        if (event.equals(ClientEvents.TOUCH)) {
            if (data != null && !data.isObject()) {
                throw new BadField("data of touch must be an object or absent");
            }
            return new ClientRequest.Touch(ref);
        }
        if (!ClientEvents.ALL.contains(event)) {
            throw new BadField("unknown event '" + event + "'");
        }
        if (data == null || !data.isObject()) {
            throw new BadField("data of " + event + " must be an object");
        }
        return switch (event) {
            case ClientEvents.WATCH -> new ClientRequest.Watch(ref, id(data, "configuratorId"));
            case ClientEvents.UNWATCH -> new ClientRequest.Unwatch(ref, id(data, "configuratorId"));
            case ClientEvents.RESUME -> new ClientRequest.Resume(ref, resumeToken(data));
            case ClientEvents.WAIT_FOR,
                    ClientEvents.STOP_WAITING,
                    ClientEvents.REQUEST_TAKEOVER,
                    ClientEvents.ANSWER_TAKEOVER -> WaitingFrames.decode(event, ref, data);
            case ClientEvents.REAUTH -> new ClientRequest.Reauth(ref, accessToken(data));
            default -> LOCK_EVENTS.get(event).apply(ref, resource(event, data));
        };
    }

    /**
     * The frames every client sends all the time (lock, unlock, watch, unwatch, touch), in their plain
     * shape, read with the streaming parser: no tree per frame. {@code null} for anything else: an
     * unusual or invalid frame (another event, another field, a repeated field, a null, a value out
     * of range, not JSON) goes the tree's way, which answers it exactly as always.
     */
    private ClientRequest decodePlain(String frame) {
        String event = null;
        String ref = null;
        boolean data = false;
        long configuratorId = 0;
        long itemId = 0;
        String page = null;
        try (JsonParser parser = json.getFactory().createParser(frame)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("event") && event == null && value == JsonToken.VALUE_STRING) {
                    event = parser.getText();
                } else if (field.equals("ref")
                        && ref == null
                        && value == JsonToken.VALUE_STRING
                        // UTF-16 units: never fewer than characters; a longer ref goes the tree's way.
                        && parser.getTextLength() <= MAX_REF
                        && UnicodeText.wellFormed(parser.getText())) {
                    ref = parser.getText();
                } else if (field.equals("data") && !data && value == JsonToken.START_OBJECT) {
                    data = true;
                    while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                        String name = parser.currentName();
                        JsonToken inner = parser.nextToken();
                        if (name.equals("configuratorId") && configuratorId == 0) {
                            configuratorId = plainId(parser, inner);
                        } else if (name.equals("itemId") && itemId == 0) {
                            itemId = plainId(parser, inner);
                        } else if (name.equals("page") && page == null && inner == JsonToken.VALUE_STRING) {
                            page = parser.getText();
                        } else {
                            return null;
                        }
                        if ((name.equals("configuratorId") && configuratorId < 0)
                                || (name.equals("itemId") && itemId < 0)) {
                            return null;
                        }
                    }
                    if (token != JsonToken.END_OBJECT) {
                        return null;
                    }
                } else {
                    return null;
                }
            }
            // Anything after the object is the tree's to refuse (StrictJson).
            if (token != JsonToken.END_OBJECT || event == null || parser.nextToken() != null) {
                return null;
            }
        } catch (IOException e) {
            return null;
        }
        return plainRequest(event, ref, data, configuratorId, itemId, page);
    }

    /** A valid id, or -1 (then the tree's way says what is wrong). */
    private static long plainId(JsonParser parser, JsonToken value) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            return -1;
        }
        long id = parser.getLongValue();
        return Resource.isValidId(id) ? id : -1;
    }

    private static ClientRequest plainRequest(
            String event, String ref, boolean data, long configuratorId, long itemId, String page) {
        if (event.equals(ClientEvents.TOUCH)) {
            return new ClientRequest.Touch(ref);
        }
        if (!data) {
            return null;
        }
        boolean configurator = configuratorId > 0;
        return switch (event) {
            case ClientEvents.WATCH -> configurator ? new ClientRequest.Watch(ref, configuratorId) : null;
            case ClientEvents.UNWATCH -> configurator ? new ClientRequest.Unwatch(ref, configuratorId) : null;
            case ClientEvents.LOCK_CONFIGURATOR, ClientEvents.UNLOCK_CONFIGURATOR ->
                configurator ? LOCK_EVENTS.get(event).apply(ref, Resource.configurator(configuratorId)) : null;
            case ClientEvents.LOCK_VARIABLES, ClientEvents.UNLOCK_VARIABLES ->
                configurator ? LOCK_EVENTS.get(event).apply(ref, Resource.variables(configuratorId)) : null;
            case ClientEvents.LOCK_ITEM_SUBRESOURCE, ClientEvents.UNLOCK_ITEM_SUBRESOURCE ->
                itemId > 0 && page != null
                        ? Page.fromWire(page)
                                .map(known -> LOCK_EVENTS.get(event).apply(ref, Resource.itemPage(itemId, known)))
                                .orElse(null)
                        : null;
            default -> null;
        };
    }

    private static Resource resource(String event, JsonNode data) {
        if (event.endsWith("-configurator")) {
            return Resource.configurator(id(data, "configuratorId"));
        }
        if (event.endsWith("-variables")) {
            return Resource.variables(id(data, "configuratorId"));
        }
        long itemId = id(data, "itemId");
        JsonNode page = present(data.get("page"));
        if (page == null || !page.isTextual()) {
            throw new BadField("page must be one of filters, dependencies, attributes");
        }
        return Resource.itemPage(
                itemId,
                Page.fromWire(page.textValue())
                        .orElseThrow(() -> new BadField(
                                "unknown page '" + page.textValue() + "': filters, dependencies or attributes")));
    }

    private static long id(JsonNode data, String field) {
        JsonNode node = present(data.get(field));
        if (node == null) {
            throw new BadField(field + " is required");
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || !Resource.isValidId(node.longValue())) {
            throw new BadField(field + " must be a positive integer below 2^53");
        }
        return node.longValue();
    }

    private static String resumeToken(JsonNode data) {
        JsonNode node = present(data.get("resumeToken"));
        if (node == null
                || !node.isTextual()
                || node.textValue().isEmpty()
                || node.textValue().length() > MAX_RESUME_TOKEN) {
            throw new BadField("resumeToken must be the string from welcome");
        }
        return node.textValue();
    }

    /**
     * No length of its own: the frame limit bounds it, and a token the upgrade took (an identity
     * provider's, with many groups, can be long) must be renewable on the socket it opened.
     */
    private static String accessToken(JsonNode data) {
        JsonNode node = present(data.get("accessToken"));
        if (node == null || !node.isTextual() || node.textValue().isBlank()) {
            throw new BadField("accessToken must be a JWT (a non-empty string)");
        }
        return node.textValue();
    }

    private static JsonNode present(JsonNode node) {
        return node == null || node.isNull() ? null : node;
    }

    private static final class BadField extends RuntimeException {
        BadField(String message) {
            super(message, null, false, false);
        }
    }
}
