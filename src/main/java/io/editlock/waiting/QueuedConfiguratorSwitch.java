package io.editlock.waiting;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.Lock;
import io.editlock.lock.LockAudit;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.Resource;
import io.editlock.lock.redis.LockRecords;
import io.editlock.lock.redis.LockScripts;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * One configurator lock per user (docs/protocol.md §2) also when a configurator comes from a waiting
 * line: the user's previous configurator lock is released (reason {@code replaced}) by its exact
 * grant, as for a lock request. Run by the node of the new holder's socket.
 */
@ApplicationScoped
public class QueuedConfiguratorSwitch {

    private final PipelinedRedis redis;
    private final LockScripts scripts;
    private final LockKeys keys;
    private final LockAudit audit;
    private final Duration recordTtl;

    public QueuedConfiguratorSwitch(PipelinedRedis redis, LockScripts scripts, LockKeys keys, LockAudit audit,
            EditlockConfig config) {
        this.redis = redis;
        this.scripts = scripts;
        this.keys = keys;
        this.audit = audit;
        this.recordTtl = config.lease().ttl().multipliedBy(2);
    }

    public Uni<Void> granted(Lock lock) {
        String current = lock.resource().configuratorId() + "|" + lock.token();
        return redis.execute(Command.SET, keys.userConfigurator(lock.ownerUserId()), current, "GET", "PX",
                        String.valueOf(recordTtl.toMillis()))
                .flatMap(previous -> {
                    if (previous == null) {
                        return Uni.createFrom().voidItem();
                    }
                    String[] parts = previous.toString().split("\\|");
                    long configuratorId = Long.parseLong(parts[0]);
                    if (configuratorId == lock.resource().configuratorId()) {
                        return Uni.createFrom().voidItem();
                    }
                    return scripts.release(Resource.configurator(configuratorId), lock.ownerUserId(), Long.parseLong(parts[1]),
                                    ReleaseReason.REPLACED, "")
                            .invoke(reply -> audit.released(LockRecords.released(reply.path("released"))))
                            .replaceWithVoid();
                });
    }
}
