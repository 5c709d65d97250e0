package io.editlock.lock.redis;

import io.editlock.config.EditlockConfig;
import io.editlock.lock.Lock;
import io.editlock.lock.LockAudit;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * One configurator lock per user (docs/protocol.md §2): a record of the configurator grant each user
 * holds, by which a new grant releases the previous one (reason {@code replaced}) exactly. The record
 * lives as long as the socket index; renewals keep it going.
 */
@ApplicationScoped
public class UserConfigurators {

    /** A configurator grant, as recorded: {@code configuratorId|token}. */
    private record Grant(long configuratorId, long token) {

        static Grant of(Lock lock) {
            return new Grant(lock.resource().configuratorId(), lock.token());
        }

        static Grant parse(String recorded) {
            String[] parts = recorded.split("\\|");
            return new Grant(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
        }

        String recorded() {
            return configuratorId + "|" + token;
        }
    }

    private final PipelinedRedis redis;
    private final LockScripts scripts;
    private final LockKeys keys;
    private final LockAudit audit;
    private final String ttlMillis;

    public UserConfigurators(
            PipelinedRedis redis, LockScripts scripts, LockKeys keys, LockAudit audit, EditlockConfig config) {
        this.redis = redis;
        this.scripts = scripts;
        this.keys = keys;
        this.audit = audit;
        this.ttlMillis = String.valueOf(SocketIndex.ttl(config).toMillis());
    }

    /**
     * The configurator lock, already granted, becomes the user's one: it is recorded, and the previous
     * one released by its exact grant. Two concurrent switches both end with one configurator held.
     *
     * @param exceptSocketId the socket whose request it was ('' = none): it learns from its reply
     * @return the configurator released
     */
    public Uni<List<Resource>> switchTo(Lock configuratorLock, String exceptSocketId) {
        Grant current = Grant.of(configuratorLock);
        String userId = configuratorLock.ownerUserId();
        return redis.execute(Command.SET, keys.userConfigurator(userId), current.recorded(), "GET", "PX", ttlMillis)
                .flatMap(previous -> previousOther(previous, current)
                        .map(grant -> release(grant, userId, exceptSocketId)
                                // A release that failed released nothing (docs/protocol.md §4), and one
                                // given up with the request (a step beside it failed) may not have run:
                                // the new grant, given back for the failure, must not stay in the record
                                // in the place of the one the user may still hold.
                                .onFailure()
                                .call(() -> putBack(userId, current, grant))
                                .onCancellation()
                                .call(() -> putBack(userId, current, grant)))
                        .orElse(Uni.createFrom().item(List.of())));
    }

    /**
     * A re-entry changes nothing: it never takes the user's record over (a concurrent switch to
     * another configurator would then release this one, and this one that). It only restores a record
     * that ran out.
     */
    public Uni<Void> restore(Lock configuratorLock) {
        return redis.execute(
                        Command.SET,
                        keys.userConfigurator(configuratorLock.ownerUserId()),
                        Grant.of(configuratorLock).recorded(),
                        "NX",
                        "PX",
                        ttlMillis)
                .replaceWithVoid();
    }

    /** The user's socket lives: the record lives on. */
    public Uni<Void> renew(String userId) {
        return redis.execute(Command.PEXPIRE, keys.userConfigurator(userId), ttlMillis)
                .replaceWithVoid();
    }

    private Uni<List<Resource>> release(Grant previous, String userId, String exceptSocketId) {
        Resource configurator = Resource.configurator(previous.configuratorId());
        return scripts.release(configurator, userId, previous.token(), ReleaseReason.REPLACED, exceptSocketId)
                .invoke(reply -> audit.released(reply.released()))
                .map(reply -> reply instanceof ReleaseReply.Released ? List.of(configurator) : List.<Resource>of());
    }

    private Uni<Void> putBack(String userId, Grant recorded, Grant previous) {
        return scripts.putBackUserConfigurator(userId, recorded.recorded(), previous.recorded(), ttlMillis)
                .onFailure()
                .recoverWithNull();
    }

    private static Optional<Grant> previousOther(Response previous, Grant current) {
        if (previous == null) {
            return Optional.empty();
        }
        Grant grant = Grant.parse(previous.toString());
        return grant.configuratorId() == current.configuratorId() ? Optional.empty() : Optional.of(grant);
    }
}
