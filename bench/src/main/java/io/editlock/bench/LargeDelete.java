package io.editlock.bench;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.List;

/**
 * What deleting a large configurator, or the item at the top of all its items, costs everybody else
 * (docs/operations.md, "Large deletes"): a configurator of N items with E entries on each of their
 * three pages is made through the REST API, then it (or that item, with all the others below it) is
 * deleted. Redis runs one command at a time, so the longest command of the delete and of its
 * cleanup is how long every other lock request, renewal and write waited behind it (Redis's
 * SLOWLOG, every command over 1 ms). Also: how long the DELETE took to answer, and how long until
 * what it left to the node was done.
 */
final class LargeDelete {

    private static final List<String> PAGES = List.of("filters", "dependencies", "attribute-values");

    private LargeDelete() {}

    /** @param topItem true: delete the item at the top of all others; false: the configurator */
    static void run(Api api, Resp redis, int items, int entriesPerPage, boolean topItem, String keyPrefix)
            throws IOException {
        Users.User user = Users.login(api, "delete", 1).get(0);
        long started = System.nanoTime();
        Api.Configurator configurator = api.configuratorWithItems(user.token(), "large", items, topItem ? 1 : 10);
        List<Long> itemIds = configurator.itemIds();
        int entries = items * entriesPerPage * PAGES.size();
        Parallel.map(entries, 32, i -> {
            int item = i / (entriesPerPage * PAGES.size());
            String page = PAGES.get(i % PAGES.size());
            JsonObject body = switch (page) {
                case "filters" -> new JsonObject().put("expression", "size > " + i);
                case "dependencies" ->
                    new JsonObject()
                            .put("targetItemId", itemIds.get((item + 1) % items))
                            .put("effect", "hide");
                default -> new JsonObject().put("name", "weight-" + i).put("value", i + " kg");
            };
            return api.addEntry(user.token(), itemIds.get(item), page, body);
        });
        System.out.printf(
                "  delete      configurator of %d items and %d entries made in %.1f s%n",
                items, entries, (System.nanoTime() - started) / 1e9);

        redis.call("CONFIG", "SET", "slowlog-log-slower-than", "1000");
        redis.call("CONFIG", "SET", "slowlog-max-len", "100000");
        redis.call("SLOWLOG", "RESET");
        long deleting = System.nanoTime();
        Parallel.await(
                topItem
                        ? api.deleteItem(user.token(), itemIds.get(0))
                        : api.deleteConfigurator(user.token(), configurator.id()),
                120);
        double answeredMs = (System.nanoTime() - deleting) / 1e6;
        // Each delete is noted as <configuratorId>:<random> until the node has cleaned up after it.
        String pending = keyPrefix + (topItem ? ":deleted-items" : ":deleted-configurators");
        while (noted(redis, pending, configurator.id())) {
            Parallel.sleep(5);
        }
        double cleanedMs = (System.nanoTime() - deleting) / 1e6;

        long longestMicros = 0;
        String longest = "none";
        int slow = 0;
        for (Object entry : (List<?>) redis.call("SLOWLOG", "GET", "-1")) {
            List<?> fields = (List<?>) entry;
            long micros = (Long) fields.get(2);
            slow++;
            if (micros > longestMicros) {
                longestMicros = micros;
                longest = String.valueOf(((List<?>) fields.get(3)).get(0));
            }
        }
        System.out.printf(
                "  delete      %s of %d items, %d entries: answered in %.0f ms, cleaned up after %.0f ms;"
                        + " longest Redis command %.1f ms (%s), %d commands over 1 ms%n",
                topItem ? "top item" : "configurator",
                items,
                entries,
                answeredMs,
                cleanedMs,
                longestMicros / 1e3,
                longest.toLowerCase(),
                slow);
    }

    private static boolean noted(Resp redis, String notes, long configuratorId) throws IOException {
        for (Object note : (List<?>) redis.call("ZRANGEBYSCORE", notes, "-inf", "+inf")) {
            if (String.valueOf(note).startsWith(configuratorId + ":")) {
                return true;
            }
        }
        return false;
    }
}
