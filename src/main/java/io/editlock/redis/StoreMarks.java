package io.editlock.redis;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.RedisClientType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys of the store marks that {@link StoreDataWatch} looks at. One Redis (alone, or behind
 * Sentinel) keeps one. A Redis Cluster keeps one on every master, for one shard can lose its data
 * alone (a fail-over of that shard to a replica that was behind): a mark on another shard would not
 * tell. The shards are read from {@code CLUSTER SLOTS} at every look, so that a cluster that was
 * resharded or grew is covered too.
 */
@ApplicationScoped
public class StoreMarks {

    /** Far more tags than it takes to hash into any slot range (about 16384 / size of the range). */
    private static final int MOST_TAGS = 1 << 20;

    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final RedisOptionsCapture options;

    public StoreMarks(PipelinedRedis redis, LockKeys keys, RedisOptionsCapture options) {
        this.redis = redis;
        this.keys = keys;
        this.options = options;
    }

    public Uni<List<String>> keys() {
        boolean cluster = options.defaultClient()
                .map(client -> client.getType() == RedisClientType.CLUSTER)
                .orElse(false);
        if (!cluster) {
            return Uni.createFrom().item(List.of(keys.storeMark()));
        }
        return redis.execute(Command.CLUSTER, "SLOTS").map(this::onePerShard);
    }

    private List<String> onePerShard(Response slots) {
        Map<String, List<int[]>> rangesByMaster = new LinkedHashMap<>();
        for (int i = 0; i < slots.size(); i++) {
            Response range = slots.get(i);
            Response master = range.get(2);
            String id = master.size() > 2
                    ? master.get(2).toString()
                    : master.get(0).toString() + ":" + master.get(1).toString();
            rangesByMaster
                    .computeIfAbsent(id, ignored -> new ArrayList<>())
                    .add(new int[] {range.get(0).toInteger(), range.get(1).toInteger()});
        }
        List<String> marks = new ArrayList<>();
        for (List<int[]> ranges : rangesByMaster.values()) {
            String mark = markIn(ranges);
            if (mark != null) {
                marks.add(mark);
            }
        }
        return marks;
    }

    private String markIn(List<int[]> ranges) {
        for (int tag = 0; tag < MOST_TAGS; tag++) {
            String key = keys.storeMark(tag);
            int slot = ClusterSlots.of(key);
            for (int[] range : ranges) {
                if (slot >= range[0] && slot <= range[1]) {
                    return key;
                }
            }
        }
        return null;
    }
}
