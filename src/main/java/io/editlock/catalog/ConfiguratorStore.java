package io.editlock.catalog;

import io.editlock.redis.LockKeys;
import io.editlock.redis.LuaScript;
import io.editlock.redis.ScriptExecutor;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The configurators and their item trees, in Redis next to their locks (same hash tag), so that a
 * lock script can see whether a configurator or item exists in the same run.
 */
@ApplicationScoped
public class ConfiguratorStore {

    private static final LuaScript ADD_ITEM = LuaScript.load("add_item");

    private final ReactiveRedisDataSource redis;
    private final ScriptExecutor scripts;
    private final LockKeys keys;

    public ConfiguratorStore(ReactiveRedisDataSource redis, ScriptExecutor scripts, LockKeys keys) {
        this.redis = redis;
        this.scripts = scripts;
        this.keys = keys;
    }

    public Uni<Configurator> createConfigurator(String name) {
        return nextId("configurator").flatMap(id -> {
            Configurator configurator = new Configurator(id, name, Instant.now());
            return redis.execute(Command.HSET, keys.configurator(id), "id", String.valueOf(id), "name", name,
                            "createdAt", configurator.createdAt().toString())
                    .flatMap(ignored -> redis.execute(Command.SADD, keys.configuratorIndex(), String.valueOf(id)))
                    .replaceWith(configurator);
        });
    }

    /** @return the item, or empty when the configurator (or the parent item in it) does not exist */
    public Uni<Optional<Item>> addItem(long configuratorId, String name, Long parentItemId) {
        return nextId("item").flatMap(id -> {
            Item item = new Item(id, configuratorId, name, parentItemId);
            JsonObject record = new JsonObject().put("id", id).put("name", name).put("parentItemId", parentItemId);
            List<String> k = List.of(keys.configurator(configuratorId), keys.items(configuratorId)); // configurator, items
            List<String> a = List.of(String.valueOf(id), record.encode(), parentItemId == null ? "" : String.valueOf(parentItemId));
            return scripts.run(ADD_ITEM, k, a).flatMap(added -> added.toInteger() == 1
                    ? redis.execute(Command.HSET, keys.itemIndex(), String.valueOf(id), String.valueOf(configuratorId))
                            .replaceWith(Optional.of(item))
                    : Uni.createFrom().item(Optional.<Item>empty()));
        });
    }

    public Uni<Boolean> configuratorExists(long configuratorId) {
        return redis.execute(Command.EXISTS, keys.configurator(configuratorId)).map(reply -> reply.toInteger() == 1);
    }

    /** Which configurator holds the item: O(1), one HGET. Items never move between configurators. */
    public Uni<Optional<Long>> configuratorOfItem(long itemId) {
        return redis.execute(Command.HGET, keys.itemIndex(), String.valueOf(itemId))
                .map(reply -> Optional.ofNullable(reply).map(Response::toLong));
    }

    private Uni<Long> nextId(String entity) {
        return redis.execute(Command.INCR, keys.sequence(entity)).map(Response::toLong);
    }
}
