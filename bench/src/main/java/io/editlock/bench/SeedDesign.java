package io.editlock.bench;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The check-then-set configurator lock that editlock replaces (a blog's design, one key per item), rebuilt in Java against the same Redis, to
 * compare cost: check-then-act with one awaited round trip per command, as in its
 * {@code acquireConfigurator}:
 * <ol>
 * <li>GET the socket's previous configurator (one configurator per socket);</li>
 * <li>assertFree: GET {@code configurator:C}, GET {@code configurator:C:variables};</li>
 * <li>the item ids of C (a database query in the blog; given here for free, from memory);</li>
 * <li>for every item: GET {@code item:I:filters}, GET {@code item:I:dependencies};</li>
 * <li>SET {@code configurator:C} with the lock JSON, EX 1800;</li>
 * <li>for every item: SET {@code item:I} (the lock plus configuratorId), EX 1800;</li>
 * <li>the index set {@code configurator-items:C}: DEL, SADD every id, EXPIRE;</li>
 * <li>trackSocketLock: SET the socket's configurator, EX 1800.</li>
 * </ol>
 * That is 3·items + 8 commands, each its own round trip. Not atomic (another request can slip in
 * between the checks and the writes): here only its cost is measured, never its correctness.
 */
final class SeedDesign {

    private final Resp redis;
    private final String prefix;

    SeedDesign(Resp redis, String prefix) {
        this.redis = redis;
        this.prefix = prefix;
    }

    /** @return the number of Redis commands sent */
    long lockConfigurator(long configuratorId, List<Long> itemIds, String userId, String userName, String socketId)
            throws IOException {
        long commands = 0;
        Object previous = redis.call("GET", prefix + "socket:" + socketId + ":configurator");
        commands++;
        if (previous != null && !previous.equals(Long.toString(configuratorId))) {
            throw new IllegalStateException("the bench releases before it locks again");
        }
        assertFree(prefix + "configurator:" + configuratorId, userId);
        assertFree(prefix + "configurator:" + configuratorId + ":variables", userId);
        commands += 2;
        for (long itemId : itemIds) {
            assertFree(prefix + "item:" + itemId + ":filters", userId);
            assertFree(prefix + "item:" + itemId + ":dependencies", userId);
            commands += 2;
        }
        String expiresAt = Instant.now().plusSeconds(1800).toString();
        String lock = "{\"ownerUserId\":\"" + userId + "\",\"ownerUserName\":\"" + userName + "\",\"socketId\":\""
                + socketId + "\",\"expiresAt\":\"" + expiresAt + "\"";
        redis.call("SET", prefix + "configurator:" + configuratorId, lock + "}", "EX", "1800");
        commands++;
        String itemLock = lock + ",\"configuratorId\":" + configuratorId + "}";
        for (long itemId : itemIds) {
            redis.call("SET", prefix + "item:" + itemId, itemLock, "EX", "1800");
            commands++;
        }
        String index = prefix + "configurator-items:" + configuratorId;
        redis.call("DEL", index);
        List<String> sadd = new ArrayList<>(itemIds.size() + 2);
        sadd.add("SADD");
        sadd.add(index);
        for (long itemId : itemIds) {
            sadd.add(Long.toString(itemId));
        }
        redis.call(sadd.toArray(String[]::new));
        redis.call("EXPIRE", index, "1800");
        redis.call("SET", prefix + "socket:" + socketId + ":configurator", Long.toString(configuratorId), "EX", "1800");
        commands += 4;
        return commands;
    }

    /** The blog's release: read the index set, delete every key it names. Not measured. */
    void unlockConfigurator(long configuratorId, String socketId) throws IOException {
        String index = prefix + "configurator-items:" + configuratorId;
        @SuppressWarnings("unchecked")
        List<Object> members = (List<Object>) redis.call("SMEMBERS", index);
        List<String> del = new ArrayList<>();
        del.add("DEL");
        for (Object member : members) {
            del.add(prefix + "item:" + member);
            if (del.size() > 1000) {
                redis.call(del.toArray(String[]::new));
                del.subList(1, del.size()).clear();
            }
        }
        del.add(prefix + "configurator:" + configuratorId);
        del.add(index);
        del.add(prefix + "socket:" + socketId + ":configurator");
        redis.call(del.toArray(String[]::new));
    }

    private void assertFree(String key, String userId) throws IOException {
        Object lock = redis.call("GET", key);
        if (lock != null && !lock.toString().contains("\"ownerUserId\":\"" + userId + "\"")) {
            throw new IllegalStateException("Currently edited by someone else: " + key);
        }
    }
}
