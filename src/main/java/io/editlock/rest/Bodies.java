package io.editlock.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.Entity;
import io.editlock.catalog.EntryField;
import io.editlock.catalog.InvalidInputException;
import io.editlock.lock.Resource;
import io.editlock.protocol.UnicodeText;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Request bodies, checked field by field: a missing required field, a wrong type, a blank name or an
 * unknown field is a 400 with a message that names it. {@code null} counts as absent. The read-only
 * fields of an entity ({@code id}, {@code configuratorId}, {@code itemId}) may be sent back and are
 * ignored.
 */
final class Bodies {

    /** Fields the server answers and a body may send back, ignored (and documented read-only). */
    static final Set<String> READ_ONLY = Set.of("id", "configuratorId", "itemId", "createdAt", "createdBy");

    private Bodies() {}

    /** A new item: {name, parentItemId?}. */
    record NewItem(String name, Long parentItemId) {}

    /** {name}: a configurator created. */
    static String name(JsonNode body) {
        object(body, List.of("name"));
        return (String) value(body, "name", EntryField.Type.NAME, true);
    }

    /**
     * {name}: an item renamed. It does not move, so its {@code parentItemId}, which the item's answer
     * carries, is read-only here: sent back, it is ignored like the other read-only fields.
     */
    static String itemName(JsonNode body) {
        object(body, List.of("name"), Set.of("parentItemId"));
        return (String) value(body, "name", EntryField.Type.NAME, true);
    }

    /**
     * {name}: a configurator renamed. Its {@code GET} answers the whole tree, whose {@code items} and
     * {@code variables} a rename does not touch (they change through their own routes): sent back, they are
     * ignored like the other read-only fields, so that what a {@code GET} answered can be sent back.
     */
    static String configuratorName(JsonNode body) {
        object(body, List.of("name"), Set.of("items", "variables"));
        return (String) value(body, "name", EntryField.Type.NAME, true);
    }

    static NewItem newItem(JsonNode body) {
        object(body, List.of("name", "parentItemId"));
        String name = (String) value(body, "name", EntryField.Type.NAME, true);
        Object parent = value(body, "parentItemId", EntryField.Type.ITEM_ID, false);
        return new NewItem(name, parent == null ? null : Long.valueOf(parent.toString()));
    }

    /** Every field of the entry, as strings. */
    static Map<String, String> newEntry(Entity entity, JsonNode body) {
        return fields(entity, body, true);
    }

    /** Some fields of the entry (at least one), as strings. */
    static Map<String, String> changes(Entity entity, JsonNode body) {
        Map<String, String> changes = fields(entity, body, false);
        if (changes.isEmpty()) {
            throw new InvalidInputException(
                    "nothing to change: send at least one of " + String.join(", ", names(entity)));
        }
        return changes;
    }

    private static Map<String, String> fields(Entity entity, JsonNode body, boolean all) {
        object(body, names(entity));
        Map<String, String> fields = new LinkedHashMap<>();
        for (EntryField field : entity.fields()) {
            Object value = value(body, field.name(), field.type(), all);
            if (value != null) {
                fields.put(field.name(), value.toString());
            }
        }
        return fields;
    }

    private static List<String> names(Entity entity) {
        return entity.fields().stream().map(EntryField::name).toList();
    }

    private static void object(JsonNode body, List<String> known) {
        object(body, known, Set.of());
    }

    private static void object(JsonNode body, List<String> known, Set<String> alsoReadOnly) {
        if (body == null || !body.isObject()) {
            throw new InvalidInputException("the body must be a JSON object with " + String.join(", ", known));
        }
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name) && !READ_ONLY.contains(name) && !alsoReadOnly.contains(name)) {
                throw new InvalidInputException(
                        "unknown field '" + name + "' (expected " + String.join(", ", known) + ")");
            }
        }
    }

    /** The field's value (a String, or a Long for ids), or null when absent and not required. */
    private static Object value(JsonNode body, String name, EntryField.Type type, boolean required) {
        JsonNode node = body.get(name);
        if (node == null || node.isNull()) {
            if (required) {
                throw new InvalidInputException(name + " is required");
            }
            return null;
        }
        if (type == EntryField.Type.ITEM_ID) {
            if (!node.isIntegralNumber() || !node.canConvertToLong() || !Resource.isValidId(node.asLong())) {
                throw new InvalidInputException(name + " must be an item id (a positive integer)");
            }
            return node.asLong();
        }
        if (!node.isTextual()) {
            throw new InvalidInputException(name + " must be a string");
        }
        String text = node.asText();
        int max = type == EntryField.Type.NAME ? EntryField.MAX_NAME : EntryField.MAX_TEXT;
        if (type != EntryField.Type.VALUE && UnicodeText.blank(text)) {
            throw new InvalidInputException(name + " must not be blank");
        }
        if (!UnicodeText.wellFormed(text)) {
            throw new InvalidInputException(name + " must be Unicode text (it holds half of a surrogate pair)");
        }
        // Characters as a user counts them: an emoji outside the BMP is one, not its two UTF-16 units.
        if (UnicodeText.characters(text) > max) {
            throw new InvalidInputException(name + " must be at most " + max + " characters");
        }
        return text;
    }
}
