package io.editlock.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** The REST calls the scenarios need for their set-up (docs/protocol.md §3, §8), against one server. */
final class Api {

    private final HttpClient http;
    private final String host;
    private final int port;

    Api(Vertx vertx, URI base) {
        this.host = base.getHost();
        this.port = base.getPort();
        this.http = vertx.createHttpClient(
                new HttpClientOptions().setMaxPoolSize(16).setKeepAlive(true));
    }

    Future<String> demoLogin(String userId, String name) {
        JsonObject body = new JsonObject().put("userId", userId).put("name", name);
        return call(HttpMethod.POST, "/api/auth/demo-login", null, body, 200).map(json -> json.getString("token"));
    }

    Future<Long> createConfigurator(String token, String name) {
        return call(HttpMethod.POST, "/api/configurators", token, new JsonObject().put("name", name), 201)
                .map(json -> json.getLong("id"));
    }

    Future<Long> addItem(String token, long configuratorId, String name, Long parentItemId) {
        JsonObject body = new JsonObject().put("name", name).put("parentItemId", parentItemId);
        return call(HttpMethod.POST, "/api/configurators/" + configuratorId + "/items", token, body, 201)
                .map(json -> json.getLong("id"));
    }

    /** @param collection {@code filters}, {@code dependencies} or {@code attribute-values} */
    Future<Long> addEntry(String token, long itemId, String collection, JsonObject body) {
        return call(HttpMethod.POST, "/api/items/" + itemId + "/" + collection, token, body, 201)
                .map(json -> json.getLong("id"));
    }

    Future<Void> deleteConfigurator(String token, long configuratorId) {
        return call(HttpMethod.DELETE, "/api/configurators/" + configuratorId, token, null, 204)
                .mapEmpty();
    }

    Future<Void> deleteItem(String token, long itemId) {
        return call(HttpMethod.DELETE, "/api/items/" + itemId, token, null, 204).mapEmpty();
    }

    /**
     * A configurator with this many items, as a tree: ten at the top, ten children per item, made level
     * by level (every parent exists before its children are added).
     */
    Configurator configuratorWithItems(String token, String name, int items) {
        return configuratorWithItems(token, name, items, 10);
    }

    /** @param roots how many items are at the top; the first item is the ancestor of all when 1 */
    Configurator configuratorWithItems(String token, String name, int items, int roots) {
        long configuratorId = Parallel.await(createConfigurator(token, name), 60);
        List<Long> ids = new ArrayList<>(items);
        int levelStart = 0;
        int levelSize = Math.min(items, roots);
        while (levelSize > 0) {
            int start = levelStart;
            List<Long> level = Parallel.map(levelSize, 16, i -> {
                int index = start + i;
                Long parent = index < roots ? null : ids.get((index - roots) / 10);
                return addItem(token, configuratorId, "item-" + index, parent);
            });
            ids.addAll(level);
            levelStart += levelSize;
            levelSize = Math.min(items - levelStart, levelSize * 10);
        }
        return new Configurator(configuratorId, ids);
    }

    record Configurator(long id, List<Long> itemIds) {}

    private Future<JsonObject> call(HttpMethod method, String path, String token, JsonObject body, int expected) {
        RequestOptions options = new RequestOptions()
                .setMethod(method)
                .setHost(host)
                .setPort(port)
                .setURI(path)
                .putHeader("Content-Type", "application/json")
                .setTimeout(60_000);
        if (token != null) {
            options.putHeader("Authorization", "Bearer " + token);
        }
        return http.request(options)
                .compose(request -> request.send(body == null ? Buffer.buffer() : body.toBuffer()))
                .compose(response -> response.body().compose(buffer -> {
                    if (response.statusCode() != expected) {
                        return Future.failedFuture(
                                method + " " + path + " answered " + response.statusCode() + ": " + buffer);
                    }
                    return Future.succeededFuture(buffer.length() == 0 ? null : buffer.toJsonObject());
                }));
    }
}
