package io.editlock.waiting;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.editlock.config.EditlockConfig;
import io.editlock.lock.Holder;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.lock.ReleasedLock;
import io.editlock.lock.Resource;
import io.editlock.redis.LockKeys;
import io.editlock.redis.LuaScript;
import io.editlock.redis.ScriptExecutor;
import io.editlock.redis.Scripts;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * Typed calls of the scripts of waiting lines and take-overs (docs/protocol.md §13, §14): replies
 * as types, read by {@link WaitingReplies}. Each method names the keys as the script calls them;
 * every resource comes with its configurator resolved.
 */
@ApplicationScoped
public class WaitingScripts {

    static final LuaScript WAIT_FOR = Scripts.WAIT_FOR;
    static final LuaScript STOP_WAITING = Scripts.STOP_WAITING;
    static final LuaScript REQUEST_TAKEOVER = Scripts.REQUEST_TAKEOVER;
    static final LuaScript ANSWER_TAKEOVER = Scripts.ANSWER_TAKEOVER;
    static final LuaScript RESOLVE_TAKEOVER = Scripts.RESOLVE_TAKEOVER;
    static final LuaScript RESERVE_LINE = Scripts.RESERVE_WAITING_LINE;
    static final LuaScript WITHDRAW = Scripts.WITHDRAW_WAITING_REQUEST;
    static final LuaScript READ_TAKEOVERS = Scripts.READ_TAKEOVERS;

    /** The requests that {@link #withdraw} undoes, as withdraw_waiting_request names them. */
    public enum Asked {
        WAIT_FOR("wait"),
        TAKEOVER("takeover");

        private final String wireName;

        Asked(String wireName) {
            this.wireName = wireName;
        }
    }

    private final ScriptExecutor executor;
    private final LockKeys keys;
    private final Duration lease;

    @Inject
    public WaitingScripts(ScriptExecutor executor, LockKeys keys, EditlockConfig config) {
        this(executor, keys, config.lease().ttl());
    }

    /** @param lease of the grants made to whom waits */
    public WaitingScripts(ScriptExecutor executor, LockKeys keys, Duration lease) {
        this.executor = executor;
        this.keys = keys;
        this.lease = lease;
    }

    /**
     * @param mayJoin whether the user's count of lines allows one more (a line they are in costs nothing)
     * @param request the number of this request, by which it can be withdrawn ({@link #withdraw})
     */
    public Uni<WaitReply> waitFor(Resource resource, Holder holder, boolean mayJoin, long request) {
        long c = resource.configuratorId();
        List<String> k = requestKeys(c, holder.socketId(), request);
        List<String> a = List.of(
                resource.field(),
                id(c),
                resource.itemId() == null ? "" : id(resource.itemId()),
                holder.userId(),
                holder.userName(),
                holder.socketId(),
                holder.nodeId(),
                keys.lockEventsChannel(),
                ms(lease),
                keys.lockEventsChannel(),
                mayJoin ? "1" : "0",
                String.valueOf(request));
        return run(WAIT_FOR, k, a, WaitingReplies::waitFor);
    }

    /** The KEYS of wait_for and request_takeover: a request of the socket's, numbered, in the configurator. */
    private List<String> requestKeys(long c, String socketId, long request) {
        return keys.withWaiting(
                List.of(
                        keys.locks(c), // locks
                        keys.configurator(c), // configurator
                        keys.items(c), // items
                        keys.voidRequest(c, socketId, request)), // void
                c); // …, lines, line, waiters, takeovers
    }

    /**
     * Counts the line against the user's lines, check and count in one step.
     *
     * @param entry {@code <configuratorId>|<field>}
     * @param settle how long a counted line may still be on its way into the line itself
     */
    public Uni<Reservation> reserveLine(String userId, String entry, int max, Duration keep, Duration settle) {
        List<String> k = List.of(keys.userWaiting(userId)); // lines
        return executor.run(RESERVE_LINE, k, List.of(entry, String.valueOf(max), ms(keep), ms(settle)))
                .map(reply -> {
                    List<String> settled = new ArrayList<>();
                    for (int i = 1; i < reply.size(); i++) {
                        settled.add(reply.get(i).toString());
                    }
                    return new Reservation(reply.get(0).toInteger() == 1, settled);
                })
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /** @param settled when refused: counted lines old enough to be checked for having been left */
    public record Reservation(boolean counted, List<String> settled) {}

    /**
     * @param asker the user who stops waiting, and the socket that asked
     * @return whether the user was waiting
     */
    public Uni<Boolean> stopWaiting(Resource resource, Holder asker) {
        long c = resource.configuratorId();
        List<String> k = keys.withWaiting(List.of(keys.locks(c)), c); // locks, …
        return run(
                STOP_WAITING,
                k,
                List.of(
                        resource.field(),
                        id(c),
                        asker.userId(),
                        keys.lockEventsChannel(),
                        ms(lease),
                        keys.lockEventsChannel(),
                        asker.socketId()),
                WaitingReplies::stopWaiting);
    }

    /** @param request the number of this request, by which it can be withdrawn ({@link #withdraw}) */
    public Uni<TakeoverReply> requestTakeover(
            Resource resource, Holder asker, String message, Duration consent, long request) {
        long c = resource.configuratorId();
        List<String> k = requestKeys(c, asker.socketId(), request);
        List<String> a = List.of(
                resource.field(),
                id(c),
                resource.itemId() == null ? "" : id(resource.itemId()),
                asker.userId(),
                asker.userName(),
                asker.socketId(),
                asker.nodeId(),
                message == null ? "" : message,
                ms(consent),
                keys.lockEventsChannel(),
                ms(lease),
                keys.lockEventsChannel(),
                String.valueOf(request));
        return run(REQUEST_TAKEOVER, k, a, WaitingReplies::requestTakeover);
    }

    /**
     * Undoes the wait-for or request-takeover {@code request} of the socket, whether it ran or not yet
     * (see withdraw_waiting_request.lua). @return the grants it gave back (and leases found expired)
     */
    public Uni<List<ReleasedLock>> withdraw(
            Asked asked, Resource resource, Holder holder, long request, Duration keepVoid) {
        long c = resource.configuratorId();
        List<String> k = keys.withWaiting(
                List.of(
                        keys.locks(c), // locks
                        keys.voidRequest(c, holder.socketId(), request)), // void
                c); // …, lines, line, waiters, takeovers
        List<String> a = List.of(
                asked.wireName,
                resource.field(),
                id(c),
                holder.userId(),
                holder.socketId(),
                String.valueOf(request),
                ms(keepVoid),
                keys.lockEventsChannel(),
                ms(lease),
                keys.lockEventsChannel());
        return run(WITHDRAW, k, a, WaitingReplies::withdraw);
    }

    public Uni<AnswerReply> answerTakeover(Resource resource, String holderUserId, boolean accept) {
        return answerTakeover(resource, holderUserId, accept, null);
    }

    /** @param askerUserId null for any asker; blank is nobody's id (tokens with a blank sub are refused), so '' says none */
    public Uni<AnswerReply> answerTakeover(Resource resource, String holderUserId, boolean accept, String askerUserId) {
        long c = resource.configuratorId();
        List<String> k = keys.withWaiting(List.of(keys.locks(c)), c); // locks, …
        return run(
                ANSWER_TAKEOVER,
                k,
                List.of(
                        resource.field(),
                        id(c),
                        holderUserId,
                        accept ? "1" : "0",
                        keys.lockEventsChannel(),
                        ms(lease),
                        keys.lockEventsChannel(),
                        askerUserId == null ? "" : askerUserId), // after the two waiting_context reads
                WaitingReplies::answerTakeover);
    }

    /** A request past its deadline names the nodes of its asker's sockets ({@link ResolveReply.Due}), and changes nothing. */
    public Uni<ResolveReply> askersNodes(long c, String field) {
        return resolve(c, field, "?");
    }

    /**
     * Hands the request past its deadline over, after forgetting the asker's sockets on {@code deadNodes}
     * (nodes whose heartbeat ended): a page is not handed to a socket whose node died.
     */
    public Uni<ResolveReply> resolveTakeover(long c, String field, Collection<String> deadNodes) {
        ArrayNode dead = JsonNodeFactory.instance.arrayNode();
        deadNodes.forEach(dead::add);
        return resolve(c, field, dead.toString());
    }

    private Uni<ResolveReply> resolve(long c, String field, String deadNodes) {
        List<String> k = keys.withWaiting(List.of(keys.locks(c)), c); // locks, …
        return run(
                RESOLVE_TAKEOVER,
                k,
                List.of(field, id(c), keys.lockEventsChannel(), ms(lease), keys.lockEventsChannel(), deadNodes),
                WaitingReplies::resolveTakeover);
    }

    /**
     * The configurator's take-overs as they stand: every pending one, and what stands now of those
     * that {@code asked} name.
     */
    public Uni<TakeoverFacts> readTakeovers(long c, List<WaitingState.AskedTakeover> asked) {
        List<String> k = List.of(
                keys.locks(c),
                keys.configurator(c),
                keys.items(c),
                keys.waiting(c).get(3)); // locks, configurator, items, takeovers
        List<String> a = new ArrayList<>();
        asked.forEach(takeover -> {
            a.add(takeover.field());
            a.add(takeover.askerId());
        });
        return run(READ_TAKEOVERS, k, a, WaitingReplies::readTakeovers);
    }

    private <T> Uni<T> run(LuaScript script, List<String> k, List<String> a, Function<String, T> reply) {
        return executor.run(script, k, a)
                .onFailure()
                .transform(LockStoreUnavailableException::of)
                .map(response -> reply.apply(response.toString()));
    }

    private static String id(long id) {
        return String.valueOf(id);
    }

    private static String ms(Duration duration) {
        return String.valueOf(duration.toMillis());
    }
}
