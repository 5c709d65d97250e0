package io.editlock.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.lock.LockChange;
import io.editlock.lock.ReleasedLock;
import io.editlock.lock.redis.LockRecords;
import io.editlock.redis.LockKeys;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.editlock.ws.ServerEvents;
import io.editlock.ws.WireFormat;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Fan-out across nodes: every lock change is published by the script that made it; each node
 * receives it here and forwards it to its own sockets — {@code lock-released} and
 * {@code lock-updated} to the configurator's watchers, {@code lock-lost} to the former holder.
 * Each frame is serialized once, whatever the number of watchers.
 */
@ApplicationScoped
public class LockEventRelay {

    private static final Logger LOG = Logger.getLogger(LockEventRelay.class);

    private final ReactiveRedisDataSource redis;
    private final LockKeys keys;
    private final SessionRegistry registry;
    private volatile Cancellable subscription;

    public LockEventRelay(ReactiveRedisDataSource redis, LockKeys keys, SessionRegistry registry) {
        this.redis = redis;
        this.keys = keys;
        this.registry = registry;
    }

    void start(@Observes StartupEvent event) {
        subscribe();
    }

    void stop(@Observes ShutdownEvent event) {
        Cancellable current = subscription;
        if (current != null) {
            current.cancel();
        }
    }

    private void subscribe() {
        subscription = redis.pubsub(String.class).subscribe(keys.lockEventsChannel())
                .onFailure().invoke(failure -> LOG.warnf("lock events subscription failed, retrying: %s", failure.getMessage()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).indefinitely()
                .subscribe().with(this::deliver, failure -> LOG.error("lock events subscription ended", failure));
    }

    void deliver(String message) {
        LockChange change;
        try {
            change = LockRecords.change(message);
        } catch (RuntimeException e) {
            LOG.warnf("ignoring a malformed lock event: %s", e.getMessage());
            return;
        }
        for (ReleasedLock released : change.released()) {
            String releasedFrame = WireFormat.frame(ServerEvents.LOCK_RELEASED, WireFormat.released(released), null);
            registry.watchers(change.configuratorId()).forEach(session -> send(session, releasedFrame));
            ObjectNode lost = WireFormat.object();
            lost.set("resource", WireFormat.resource(released.lock().resource()));
            lost.put("reason", released.reason().wireName());
            String lostFrame = WireFormat.frame(ServerEvents.LOCK_LOST, lost, null);
            registry.socketsOf(released.lock().ownerUserId()).stream()
                    .filter(session -> !session.socketId().equals(released.exceptSocketId()))
                    .forEach(session -> send(session, lostFrame));
        }
        ObjectNode updated = WireFormat.object().put("configuratorId", change.configuratorId());
        updated.set("locks", WireFormat.locks(change.locks(), false));
        String updatedFrame = WireFormat.frame(ServerEvents.LOCK_UPDATED, updated, null);
        registry.watchers(change.configuratorId()).forEach(session -> send(session, updatedFrame));
    }

    private static void send(SocketSession session, String frame) {
        if (session.connection().isOpen()) {
            session.connection().sendText(frame).subscribe().with(ignored -> { }, failure -> { });
        }
    }
}
