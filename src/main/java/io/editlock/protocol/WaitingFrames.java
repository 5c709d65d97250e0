package io.editlock.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import io.editlock.lock.ResourceType;

/**
 * Decodes the requests of take-over and waiting (docs/protocol.md §13, §14), which name their
 * resource as a {@code Resource} object. A bad field is an {@link ClientRequest.Invalid}.
 */
final class WaitingFrames {

    static final int MAX_MESSAGE = 200;

    private WaitingFrames() {}

    static ClientRequest decode(String event, String ref, JsonNode data) {
        try {
            Resource resource = resource(data);
            return switch (event) {
                case ClientEvents.WAIT_FOR -> new ClientRequest.WaitFor(ref, resource);
                case ClientEvents.STOP_WAITING -> new ClientRequest.StopWaiting(ref, resource);
                case ClientEvents.REQUEST_TAKEOVER -> new ClientRequest.RequestTakeover(ref, resource, message(data));
                case ClientEvents.ANSWER_TAKEOVER ->
                    new ClientRequest.AnswerTakeover(ref, resource, accept(data), byUserId(data));
                default -> throw new IllegalArgumentException("unknown event '" + event + "'");
            };
        } catch (IllegalArgumentException e) {
            return new ClientRequest.Invalid(ref, e.getMessage());
        }
    }

    /** {type, configuratorId?, itemId?, page?}; for an item page the configurator may be left out (the server knows it). */
    private static Resource resource(JsonNode data) {
        JsonNode node = present(data.get("resource"));
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("resource must be an object {type, configuratorId, itemId?, page?}");
        }
        JsonNode type = present(node.get("type"));
        ResourceType kind = type == null || !type.isTextual()
                ? null
                : ResourceType.fromWire(type.textValue()).orElse(null);
        if (kind == null) {
            throw new IllegalArgumentException("resource.type must be configurator, variables or item-subresource");
        }
        return switch (kind) {
            case CONFIGURATOR -> Resource.configurator(id(node, "configuratorId"));
            case VARIABLES -> Resource.variables(id(node, "configuratorId"));
            case ITEM_SUBRESOURCE -> {
                JsonNode page = present(node.get("page"));
                if (page == null || !page.isTextual()) {
                    throw new IllegalArgumentException(
                            "resource.page must be one of filters, dependencies, attributes");
                }
                Resource itemPage = Resource.itemPage(
                        id(node, "itemId"),
                        Page.fromWire(page.textValue())
                                .orElseThrow(() -> new IllegalArgumentException("unknown page '" + page.textValue()
                                        + "': filters, dependencies or attributes")));
                // It may be left out, but one given is a field of Resource like any other (docs/protocol.md
                // §4); its value is not trusted: the server resolves the item's own configurator.
                if (present(node.get("configuratorId")) != null) {
                    id(node, "configuratorId");
                }
                yield itemPage;
            }
        };
    }

    private static String message(JsonNode data) {
        JsonNode node = present(data.get("message"));
        if (node == null) {
            return null;
        }
        if (!node.isTextual()
                || UnicodeText.characters(node.textValue()) > MAX_MESSAGE
                || !UnicodeText.wellFormed(node.textValue())) {
            throw new IllegalArgumentException(
                    "message must be a Unicode string of at most " + MAX_MESSAGE + " characters");
        }
        return node.textValue();
    }

    private static boolean accept(JsonNode data) {
        JsonNode node = present(data.get("accept"));
        if (node == null || !node.isBoolean()) {
            throw new IllegalArgumentException("accept must be true or false");
        }
        return node.booleanValue();
    }

    /**
     * The asker the answer is meant for, as {@code takeover-requested} named them. Judged as the server judges a
     * token's {@code sub} (docs/protocol.md §3): text that is not blank and is Unicode; any id a token may carry
     * must be nameable here, so there is no bound of its own below the frame size. Blank or half a surrogate pair
     * is nobody's id: a mistake, not an answer to no one.
     */
    private static String byUserId(JsonNode data) {
        JsonNode node = present(data.get("byUserId"));
        if (node == null) {
            return null;
        }
        if (!node.isTextual() || UnicodeText.blank(node.textValue()) || !UnicodeText.wellFormed(node.textValue())) {
            throw new IllegalArgumentException("byUserId must be a user id: a non-blank string of Unicode text");
        }
        return node.textValue();
    }

    private static long id(JsonNode data, String field) {
        JsonNode node = present(data.get(field));
        if (node == null) {
            throw new IllegalArgumentException("resource." + field + " is required");
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || !Resource.isValidId(node.longValue())) {
            throw new IllegalArgumentException("resource." + field + " must be a positive integer below 2^53");
        }
        return node.longValue();
    }

    private static JsonNode present(JsonNode node) {
        return node == null || node.isNull() ? null : node;
    }
}
