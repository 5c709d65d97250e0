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
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * One configurator lock per user (docs/protocol.md §2): a record of the configurator grant each user
 * holds, by which a new grant releases the previous one (reason {@code replaced}) exactly. The record
 * only moves on to a newer grant (switch_user_configurator.lua): the switch to a grant runs on every
 * node that keeps it for one of the user's sockets, each at its own moment, and the user still ends
 * with the newest alone. The record lives as long as the socket index; renewals keep it going.
 */
@ApplicationScoped
public class UserConfigurators {

    /** A configurator grant, as recorded: {@code configuratorId|token|acquiredAt}. */
    private record Grant(long configuratorId, long token, long acquiredAt) {

        static Grant of(Lock lock) {
            return new Grant(
                    lock.resource().configuratorId(),
                    lock.token(),
                    lock.acquiredAt().toEpochMilli());
        }

        /** A record of an earlier version has no acquiredAt. */
        static Grant parse(String recorded) {
            String[] parts = recorded.split("\\|");
            return new Grant(
                    Long.parseLong(parts[0]),
                    Long.parseLong(parts[1]),
                    parts.length > 2 ? Long.parseLong(parts[2]) : 0);
        }

        String recorded() {
            return configuratorId + "|" + token + "|" + acquiredAt;
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
     * one released by its exact grant; or, when the record names a newer grant already, this one is
     * released instead. Concurrent and repeated switches all end with the newest configurator held.
     *
     * @param exceptSocketId the socket whose request it was ('' = none): it learns from its reply what
     *     was released for it
     * @return the configurator released for this grant
     */
    public Uni<List<Resource>> switchTo(Lock configuratorLock, String exceptSocketId) {
        Grant current = Grant.of(configuratorLock);
        String userId = configuratorLock.ownerUserId();
        return scripts.switchUserConfigurator(userId, current.recorded(), ttlMillis)
                .flatMap(reply -> {
                    String other = reply.other();
                    if (reply.outcome() == LockScripts.UserSwitch.Outcome.NEWER) {
                        // A newer configurator of the user was recorded first: this grant is the one to go,
                        // and its own socket is told so too.
                        return other.isEmpty() || Grant.parse(other).configuratorId() == current.configuratorId()
                                ? Uni.createFrom().item(List.<Resource>of())
                                : release(current, userId, "").replaceWith(List.<Resource>of());
                    }
                    if (other.isEmpty()) {
                        return Uni.createFrom().item(List.<Resource>of());
                    }
                    Grant previous = Grant.parse(other);
                    return release(previous, userId, exceptSocketId)
                            // A release that failed released nothing (docs/protocol.md §4), and one given
                            // up with the request (a step beside it failed) may not have run: the new
                            // grant, given back for the failure, must not stay in the record in the place
                            // of the one the user may still hold.
                            .onFailure()
                            .call(() -> putBack(userId, current, previous))
                            .onCancellation()
                            .call(() -> putBack(userId, current, previous));
                });
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
}
