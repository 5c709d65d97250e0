package io.editlock.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.protocol.ServerEvents;
import io.editlock.protocol.WireFormat;
import io.editlock.redis.LastingSubscription;
import io.editlock.redis.ListeningReadiness;
import io.editlock.redis.LockKeys;
import io.editlock.redis.ScriptJson;
import io.editlock.redis.StoreDataWatch;
import io.editlock.session.SessionRegistry;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Fan-out of content changes across nodes: every successful REST write is published by the script
 * that made it ({@code {c, entity, id, op}}); each node receives it here and sends
 * {@code content-changed} {configuratorId, entity, id, op} to its own watchers of that configurator.
 * The frame is serialized once, whatever the number of watchers, and written by {@link FanOut}.
 */
@ApplicationScoped
public class ContentEventRelay {

    private static final Logger LOG = Logger.getLogger(ContentEventRelay.class);

    private final ReactiveRedisDataSource redis;
    private final LockKeys keys;
    private final SessionRegistry registry;
    private final FanOut fanOut;
    private final Vertx vertx;
    private final ListeningReadiness listening;
    private final StoreDataWatch dataWatch;
    private volatile LastingSubscription subscription;

    public ContentEventRelay(
            ReactiveRedisDataSource redis,
            LockKeys keys,
            SessionRegistry registry,
            FanOut fanOut,
            Vertx vertx,
            ListeningReadiness listening,
            StoreDataWatch dataWatch) {
        this.dataWatch = dataWatch;
        this.listening = listening;
        this.vertx = vertx;
        this.fanOut = fanOut;
        this.redis = redis;
        this.keys = keys;
        this.registry = registry;
    }

    void start(@Observes StartupEvent event) {
        subscription = listening.watch(LastingSubscription.start(
                redis,
                vertx,
                keys.contentEventsChannel(),
                this::deliver,
                dataWatch::catchingUp,
                this::announceMissedWrites));
    }

    void stop(@Observes ShutdownEvent event) {
        LastingSubscription current = subscription;
        if (current != null) {
            current.stop();
        }
    }

    /** The store lost its data: the configurators its watchers show may be gone or older. */
    void storeDataLost(@Observes StoreDataWatch.StoreDataLost lost) {
        if (lost.toldByCatchUp()) {
            return; // that catch-up announces them
        }
        announceMissedWrites();
    }

    /**
     * Writes made while the subscription was down were not announced here: every watched configurator
     * gets a change of the configurator itself, so that its viewers read it all again (docs/protocol.md §8).
     */
    private void announceMissedWrites() {
        for (Long configuratorId : List.copyOf(registry.watchedConfigurators())) {
            ObjectNode data = WireFormat.object()
                    .put("configuratorId", configuratorId)
                    .put("entity", "configurator")
                    .put("id", configuratorId)
                    .put("op", "updated");
            fanOut.send(
                    configuratorId,
                    registry.watchers(configuratorId),
                    WireFormat.frame(ServerEvents.CONTENT_CHANGED, data, null),
                    null);
        }
    }

    void deliver(String message) {
        long configuratorId;
        ObjectNode data;
        try {
            JsonNode change = ScriptJson.parse(message);
            configuratorId = Long.parseLong(change.path("c").asText());
            data = WireFormat.object()
                    .put("configuratorId", configuratorId)
                    .put("entity", change.path("entity").asText())
                    .put("id", Long.parseLong(change.path("id").asText()))
                    .put("op", change.path("op").asText());
        } catch (RuntimeException e) {
            LOG.warnf("ignoring a malformed content event: %s", e.getMessage());
            return;
        }
        String frame = WireFormat.frame(ServerEvents.CONTENT_CHANGED, data, null);
        fanOut.send(configuratorId, registry.watchers(configuratorId), frame, null);
        if (isConfiguratorDeleted(data)) {
            // A deleted configurator holds no place among the watches a socket may ask for (docs/protocol.md
            // §4). Its room stays: the releases of its locks travel on the lock events, which may come later.
            registry.watchers(configuratorId)
                    .forEach(watcher -> watcher.askedToWatch().remove(configuratorId));
        }
    }

    private static boolean isConfiguratorDeleted(JsonNode data) {
        return "configurator".equals(data.path("entity").asText())
                && "deleted".equals(data.path("op").asText());
    }
}
