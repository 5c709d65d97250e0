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
 * holds, by which a new grant releases the previous one (reason {@code replaced}) exactly. The switch
 * to a grant may run on several nodes, each at its own moment (every node that keeps it for one of
 * the user's sockets): a late one that finds a newer grant in the record puts that one back through
 * switch_user_configurator.lua, which only moves the record on, so the user still ends with the
 * newest alone. The record lives as long as the socket index; renewals keep it going.
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

        /** The order every node agrees on, as switch_user_configurator.lua has it. */
        boolean newerThan(Grant other) {
            if (acquiredAt != other.acquiredAt) {
                return acquiredAt > other.acquiredAt;
            }
            if (token != other.token) {
                return token > other.token;
            }
            return configuratorId > other.configuratorId;
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
     * one released by its exact grant. Should the record have named a newer grant (this switch came
     * late: a line or a take-over runs it on the node of every socket it hands the page to, each at its
     * own moment), that one is recorded again and this one goes. Concurrent and repeated switches all
     * end with the newest configurator held alone; the usual switch costs one command.
     *
     * @param exceptSocketId the socket whose request it was ('' = none): it learns from its reply what
     *     was released for it
     * @return the configurator released for this grant
     */
    public Uni<List<Resource>> switchTo(Lock configuratorLock, String exceptSocketId) {
        Grant current = Grant.of(configuratorLock);
        String userId = configuratorLock.ownerUserId();
        return redis.execute(Command.SET, keys.userConfigurator(userId), current.recorded(), "GET", "PX", ttlMillis)
                .flatMap(recorded -> {
                    if (recorded == null) {
                        return Uni.createFrom().item(List.<Resource>of());
                    }
                    Grant previous = Grant.parse(recorded.toString());
                    if (previous.newerThan(current)) {
                        return reinstate(previous, current, userId);
                    }
                    if (previous.configuratorId() == current.configuratorId()) {
                        return Uni.createFrom().item(List.<Resource>of());
                    }
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
     * A late switch put {@code current} in the place of a {@code newer} grant: the newer one is switched
     * to again, by the script that only moves the record on to a newer grant (whatever else moved it
     * meanwhile), and {@code current} goes; its own socket is told so too. An older grant of the same
     * configurator ended already.
     */
    private Uni<List<Resource>> reinstate(Grant newer, Grant current, String userId) {
        Uni<Void> older = newer.configuratorId() == current.configuratorId()
                ? Uni.createFrom().voidItem()
                : release(current, userId, "").replaceWithVoid();
        return scripts.switchUserConfigurator(userId, newer.recorded(), ttlMillis)
                .flatMap(reply -> {
                    if (reply.outcome() == LockScripts.UserSwitch.Outcome.NEWER) {
                        return release(newer, userId, "").replaceWithVoid();
                    }
                    if (reply.outcome() == LockScripts.UserSwitch.Outcome.RECORDED
                            && !reply.other().isEmpty()) {
                        return release(Grant.parse(reply.other()), userId, "").replaceWithVoid();
                    }
                    return Uni.createFrom().voidItem();
                })
                .call(() -> older)
                .replaceWith(List.of());
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
