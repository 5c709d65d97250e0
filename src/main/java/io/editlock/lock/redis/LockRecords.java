package io.editlock.lock.redis;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Lock;
import io.editlock.lock.LockChange;
import io.editlock.lock.Page;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.ReleasedLock;
import io.editlock.lock.Resource;
import io.editlock.lock.ResourceType;
import io.editlock.redis.ScriptJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The lock codec: reads what the scripts write, lock records and change events (layout in lua/locks_lib.lua). */
public final class LockRecords {

    private LockRecords() {}

    public static Lock lock(JsonNode record) {
        ResourceType type = ResourceType.fromWire(record.path("type").asText())
                .orElseThrow(() -> new IllegalStateException("lock record without a known type: " + record));
        long configuratorId = Long.parseLong(record.path("cfg").asText());
        Resource resource = switch (type) {
            case CONFIGURATOR -> Resource.configurator(configuratorId);
            case VARIABLES -> Resource.variables(configuratorId);
            case ITEM_SUBRESOURCE ->
                Resource.itemPage(
                                Long.parseLong(record.path("item").asText()),
                                Page.fromWire(record.path("page").asText()).orElseThrow())
                        .inConfigurator(configuratorId);
        };
        String token = record.path("t").asText("0");
        return new Lock(
                resource,
                record.path("u").asText(),
                record.path("n").asText(),
                Instant.ofEpochMilli(record.path("a").asLong()),
                Instant.ofEpochMilli(record.path("e").asLong()),
                token.isEmpty() ? 0 : Long.parseLong(token),
                keepers(record.path("k")));
    }

    /** cjson writes an empty list as {}: both mean "none". */
    public static List<Lock> locks(JsonNode array) {
        List<Lock> locks = new ArrayList<>();
        if (array.isArray()) {
            array.forEach(record -> locks.add(lock(record)));
        }
        return locks;
    }

    public static List<ReleasedLock> released(JsonNode array) {
        List<ReleasedLock> released = new ArrayList<>();
        if (array.isArray()) {
            for (JsonNode entry : array) {
                ReleaseReason reason = ReleaseReason.fromWire(
                                entry.path("reason").asText())
                        .orElseThrow(() -> new IllegalStateException("unknown release reason in " + entry));
                released.add(new ReleasedLock(
                        lock(entry.path("lock")), reason, entry.path("except").asText("")));
            }
        }
        return released;
    }

    /** A message of the lock-events channel. */
    public static LockChange change(String message) {
        return change(ScriptJson.parse(message));
    }

    public static LockChange change(JsonNode node) {
        return new LockChange(
                Long.parseLong(node.path("c").asText()),
                locks(node.path("locks")),
                released(node.path("released")),
                node.path("ts").asLong(0),
                look(node.path("look")),
                waiting(node));
    }

    /** Absent: the change left the waiting lines as they were; null: nobody waits any more. */
    private static Optional<Map<String, Long>> waiting(JsonNode change) {
        if (!change.has("waiting")) {
            return Optional.empty();
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        change.path("waiting")
                .properties()
                .forEach(entry -> counts.put(entry.getKey(), entry.getValue().asLong()));
        return Optional.of(counts);
    }

    private static Optional<LockChange.LookToSchedule> look(JsonNode look) {
        if (!look.isObject()) {
            return Optional.empty();
        }
        return Optional.of(new LockChange.LookToSchedule(
                look.path("at").asLong(), look.path("socket").asText()));
    }

    private static Map<String, String> keepers(JsonNode node) {
        Map<String, String> keepers = new LinkedHashMap<>();
        node.properties()
                .forEach(entry -> keepers.put(entry.getKey(), entry.getValue().asText()));
        return keepers;
    }
}
