package io.editlock.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.redis.ScriptJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads what the scripts store: item and entry records (ids as strings), and whole snapshots. */
final class CatalogRecords {

    private CatalogRecords() {}

    static Configurator configurator(JsonNode record) {
        JsonNode createdBy = record.path("createdBy");
        return new Configurator(
                id(record, "id"),
                record.path("name").asText(),
                Instant.parse(record.path("createdAt").asText()),
                createdBy.isTextual() ? createdBy.textValue() : null);
    }

    static Item item(long configuratorId, JsonNode record) {
        JsonNode parent = record.path("parentItemId");
        return new Item(
                id(record, "id"),
                configuratorId,
                record.path("name").asText(),
                parent.isTextual() || parent.isNumber() ? Long.valueOf(parent.asText()) : null);
    }

    static Entry entry(Entity entity, long configuratorId, JsonNode record) {
        long id = id(record, "id");
        return switch (entity) {
            case FILTER -> new Entry.Filter(id, configuratorId, id(record, "itemId"), text(record, "expression"));
            case DEPENDENCY ->
                new Entry.Dependency(
                        id, configuratorId, id(record, "itemId"), id(record, "targetItemId"), text(record, "effect"));
            case ATTRIBUTE_VALUE ->
                new Entry.AttributeValue(
                        id, configuratorId, id(record, "itemId"), text(record, "name"), text(record, "value"));
            case VARIABLE -> new Entry.Variable(id, configuratorId, text(record, "name"), text(record, "formula"));
            default -> throw new IllegalArgumentException(entity + " is not an entry");
        };
    }

    /** The tree from flat records: items under their parents, entries under their items, all by id. */
    static ConfiguratorTree tree(Configurator configurator, List<Item> items, List<Entry> entries) {
        Map<Long, List<Entry>> byItem = new HashMap<>();
        List<Entry.Variable> variables = new ArrayList<>();
        for (Entry entry : entries) {
            if (entry instanceof Entry.Variable variable) {
                variables.add(variable);
            } else {
                byItem.computeIfAbsent(itemOf(entry), id -> new ArrayList<>()).add(entry);
            }
        }
        Map<Long, List<Item>> children = new HashMap<>();
        items.forEach(item -> children.computeIfAbsent(
                        item.parentItemId() == null ? 0L : item.parentItemId(), id -> new ArrayList<>())
                .add(item));
        variables.sort(Comparator.comparingLong(Entry::id));
        return new ConfiguratorTree(
                configurator.id(),
                configurator.name(),
                configurator.createdAt(),
                configurator.createdBy(),
                nodes(0L, children, byItem),
                variables);
    }

    private static List<ConfiguratorTree.Node> nodes(
            long parent, Map<Long, List<Item>> children, Map<Long, List<Entry>> byItem) {
        List<Item> level = new ArrayList<>(children.getOrDefault(parent, List.of()));
        level.sort(Comparator.comparingLong(Item::id));
        List<ConfiguratorTree.Node> nodes = new ArrayList<>();
        for (Item item : level) {
            List<Entry> own = byItem.getOrDefault(item.id(), List.of());
            nodes.add(new ConfiguratorTree.Node(
                    item.id(),
                    item.name(),
                    item.parentItemId(),
                    only(own, Entry.Filter.class),
                    only(own, Entry.Dependency.class),
                    only(own, Entry.AttributeValue.class),
                    nodes(item.id(), children, byItem)));
        }
        return nodes;
    }

    private static <T extends Entry> List<T> only(List<Entry> entries, Class<T> type) {
        return entries.stream()
                .filter(type::isInstance)
                .map(type::cast)
                .sorted(Comparator.comparingLong(Entry::id))
                .toList();
    }

    private static long itemOf(Entry entry) {
        if (entry instanceof Entry.Filter filter) {
            return filter.itemId();
        }
        if (entry instanceof Entry.Dependency dependency) {
            return dependency.itemId();
        }
        if (entry instanceof Entry.AttributeValue value) {
            return value.itemId();
        }
        throw new IllegalArgumentException("a variable is on no item");
    }

    /** Ids of a script's reply list; cjson writes an empty list as {}. */
    static List<Long> ids(JsonNode array) {
        List<Long> ids = new ArrayList<>();
        if (array.isArray()) {
            array.forEach(id -> ids.add(Long.parseLong(id.asText())));
        }
        return ids;
    }

    static JsonNode parse(String json) {
        return ScriptJson.parse(json);
    }

    private static long id(JsonNode record, String field) {
        return Long.parseLong(record.path(field).asText());
    }

    private static String text(JsonNode record, String field) {
        return record.path(field).asText();
    }
}
