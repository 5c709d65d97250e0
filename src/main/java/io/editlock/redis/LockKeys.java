package io.editlock.redis;

import io.editlock.config.EditlockConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Every Redis key and channel name editlock uses, in one place.
 *
 * <p>All keys of one configurator carry the hash tag {@code {c<id>}}, so that they live in one
 * Redis Cluster slot and a script can touch its locks and its data in one run. Keys that a script
 * never touches together with others (per user, per socket, the global indexes) need no tag.
 */
@ApplicationScoped
public class LockKeys {

    private final String prefix;

    @Inject
    public LockKeys(EditlockConfig config) {
        this(config.redis().keyPrefix());
    }

    public LockKeys(String prefix) {
        this.prefix = prefix;
    }

    public static String hashTag(long configuratorId) {
        return "{c" + configuratorId + "}";
    }

    /** Hash: lock field -> lock record (see lua/locks_lib.lua). */
    public String locks(long configuratorId) {
        return prefix + ":" + hashTag(configuratorId) + ":locks";
    }

    /** Hash: the configurator's own record; its existence is the configurator's. */
    public String configurator(long configuratorId) {
        return prefix + ":" + hashTag(configuratorId) + ":configurator";
    }

    /**
     * String, short-lived: the lock request (or wait-for, or request-takeover) {@code request} of the
     * socket was given up by the server (it answered UNAVAILABLE); the script of that request does
     * nothing for it when it finds this.
     */
    public String voidRequest(long configuratorId, String socketId, long request) {
        return prefix + ":" + hashTag(configuratorId) + ":void:" + socketId + ":" + request;
    }

    /** Hash: itemId -> item record, every item of the configurator. */
    public String items(long configuratorId) {
        return prefix + ":" + hashTag(configuratorId) + ":items";
    }

    /** Hash: itemId -> JSON array of the ids of its child items (absent: no children). */
    public String children(long configuratorId) {
        return prefix + ":" + hashTag(configuratorId) + ":children";
    }

    /**
     * Hash: {@code <itemId>:<page>} -> JSON array of the ids of that page's entries (absent: none). A
     * deleted item's lists stay until the cleanup after its delete ({@link #deletedSubtrees}).
     */
    public String itemEntries(long configuratorId) {
        return prefix + ":" + hashTag(configuratorId) + ":item-entries";
    }

    /**
     * Hash: entryId -> entry record, one per kind of entry of the configurator.
     *
     * @param collection {@code filters}, {@code dependencies}, {@code attribute-values}, {@code variables}
     */
    public String entries(long configuratorId, String collection) {
        return prefix + ":" + hashTag(configuratorId) + ":" + collection;
    }

    /**
     * Hash: entryId -> where the entry is ({@code <configuratorId>:<itemId>}, or {@code <configuratorId>}
     * for a variable), for the O(1) resolution of an entry id. Written before the entry, removed after
     * it: an index entry may point at nothing for a moment (a miss), never the other way round.
     *
     * @param entity {@code filter}, {@code dependency}, {@code attribute-value}, {@code variable}
     */
    public String entryIndex(String entity) {
        return prefix + ":" + entity + "-index";
    }

    /** Hash: itemId -> configuratorId, for the O(1) "which configurator holds item I". */
    public String itemIndex() {
        return prefix + ":item-index";
    }

    /**
     * Hash: the records of a deleted configurator's {@code collection} ({@code items}, {@code filters},
     * ...), set aside by its delete until their ids are out of the global indexes.
     */
    public String deletedRecords(long configuratorId, String collection) {
        return prefix + ":" + hashTag(configuratorId) + ":deleted:" + collection;
    }

    /**
     * String: a deleted configurator whose cleanup has not yet taken its id off the list of configurators
     * (its list entry goes at once): its id stays in use until then.
     */
    public String deletedConfigurator(long configuratorId) {
        return prefix + ":" + hashTag(configuratorId) + ":deleted";
    }

    /**
     * Hash: what deleted items left to clean up in the background, until it is done: {@code
     * <itemId>:items} -> JSON array of the ids of the deleted item's sub-tree, whose records are gone;
     * their ids are still in the item index, and their pages' lists, the entries on them and those
     * entries' ids are still in {@link #itemEntries}, the entry hashes and the entry indexes.
     */
    public String deletedSubtrees(long configuratorId) {
        return prefix + ":" + hashTag(configuratorId) + ":deleted:sub-trees";
    }

    /**
     * Sorted set: the deletes of items asked for ({@code <configuratorId>:<random>}; score: when, on
     * Redis's clock), until what each left in {@link #deletedSubtrees} is cleaned up or its script
     * refused.
     */
    public String deletedItems() {
        return prefix + ":deleted-items";
    }

    /**
     * Sorted set: the deletes of configurators asked for ({@code <configuratorId>:<random>}; score: when,
     * on Redis's clock), until what each set aside is cleaned up or its script refused; written before
     * the delete runs, so that a node that dies right after it leaves the cleanup to the others.
     */
    public String deletedConfigurators() {
        return prefix + ":deleted-configurators";
    }

    /**
     * Sorted set: the id of every configurator, scored by itself, so that a page of the listing is read
     * in O(log n + page) whatever the number of configurators.
     */
    public String configuratorIndex() {
        return prefix + ":configurator-list";
    }

    /**
     * Set: the ids of every configurator, as earlier versions kept them; moved into {@link
     * #configuratorIndex()} when a node starts.
     */
    public String formerConfiguratorIndex() {
        return prefix + ":configurators";
    }

    public String sequence(String entity) {
        return prefix + ":seq:" + entity;
    }

    /** Set: configurator ids a socket may keep locks in (may hold a few stale ids, never misses one). */
    public String socketConfigurators(String socketId) {
        return prefix + ":socket:" + socketId + ":configurators";
    }

    /** String "configuratorId|token|acquiredAt": the configurator grant the user holds (one per user). */
    public String userConfigurator(String userId) {
        return prefix + ":user:" + userId + ":configurator";
    }

    /** Sorted set: configuratorId -> when the reapers should look at its leases next (ms). */
    public String leaseExpiries() {
        return prefix + ":lease-expiries";
    }

    /** Hash {socketId, userId, nodeId, state}: what a resumeToken resumes (docs/protocol.md §5). */
    public String resume(String resumeToken) {
        return prefix + ":resume:" + resumeToken;
    }

    /** String with a short TTL, refreshed by the node while it lives. */
    public String nodeAlive(String nodeId) {
        return prefix + ":node:" + nodeId + ":alive";
    }

    /** Pub/sub channel of one node: questions about its sockets, and the answers to its own questions. */
    public String nodeInbox(String nodeId) {
        return prefix + ":node:" + nodeId + ":inbox";
    }

    /** Counter of one user's lock requests in one second. */
    public String lockRequestRate(String userId, long epochSecond) {
        return prefix + ":rate:" + userId + ":" + epochSecond;
    }

    /**
     * String: the record of an Idempotency-Key used on a create in this configurator (docs/protocol.md
     * §8), written by the create's script in the same run as the entity. For a new configurator,
     * the configurator's own id names the slot.
     *
     * @param keyId the user and key, hashed
     */
    public String idempotencyRecord(long configuratorId, String keyId) {
        return prefix + ":" + hashTag(configuratorId) + ":idempotency:" + keyId;
    }

    /** String {@code <id>|<fingerprint>}: the id a create under this key reserved, so that its retries find it. */
    public String idempotencyClaim(String keyId) {
        return prefix + ":idempotency:" + keyId + ":claim";
    }

    /** String with a short TTL: a request under this key is in progress. */
    public String idempotencyInFlight(String keyId) {
        return prefix + ":idempotency:" + keyId + ":in-flight";
    }

    /**
     * The waiting lines and pending take-overs of a configurator (docs/protocol.md §13, §14), as the
     * scripts take them: lines, line, waiters, takeovers (layout in lua/waitlines_lib.lua).
     */
    public List<String> waiting(long configuratorId) {
        String tag = prefix + ":" + hashTag(configuratorId);
        return List.of(tag + ":wait-lines", tag + ":wait-line", tag + ":waiters", tag + ":takeovers");
    }

    /** A script's own keys followed by the configurator's waiting keys, as lua/waitlines_lib.lua takes them. */
    public List<String> withWaiting(List<String> scriptKeys, long configuratorId) {
        List<String> all = new ArrayList<>(scriptKeys);
        all.addAll(waiting(configuratorId));
        return all;
    }

    /** A script's own arguments followed by the lease of grants from a line and the lock events channel. */
    public List<String> withWaitingArgs(List<String> scriptArgs, Duration lease) {
        List<String> all = new ArrayList<>(scriptArgs);
        all.add(String.valueOf(lease.toMillis()));
        all.add(lockEventsChannel());
        return all;
    }

    /** String: a random mark that lives as long as the store's data; gone or replaced, the data was lost (StoreDataWatch). */
    public String storeMark() {
        return prefix + ":store-mark";
    }

    /** String: the store mark of a Redis Cluster shard; the tag is chosen to hash into one of the shard's slots. */
    public String storeMark(int shardTag) {
        return prefix + ":store-mark:{" + shardTag + "}";
    }

    /** Sorted set: {@code <configuratorId>|<field>} -> deadline (ms) of a pending take-over, for every node's sweep. */
    public String takeoverDeadlines() {
        return prefix + ":takeover-deadlines";
    }

    /** String {@code <epoch millis>|<nodeId>}, with the idle timeout as TTL: when which node last saw the user active (docs/protocol.md §6). */
    public String userActive(String userId) {
        return prefix + ":user:" + userId + ":active";
    }

    /** Sorted set {@code <configuratorId>|<field>} -> when counted (ms): the lines a user waits in (may hold a few stale entries). */
    public String userWaiting(String userId) {
        return prefix + ":user:" + userId + ":waiting";
    }

    /** Counter of one user's REST writes in one second. */
    public String restWriteRate(String userId, long epochSecond) {
        return prefix + ":rest-rate:" + userId + ":" + epochSecond;
    }

    /** Pub/sub channel of content changes (REST writes), published from inside the write scripts. */
    public String contentEventsChannel() {
        return prefix + ":content-events";
    }

    /**
     * Pub/sub channel of lock changes and of waiting lines and take-overs (events marked
     * {@code kind: waiting}), published from inside the scripts: one channel, so that every node hears
     * the changes of a configurator in the order they were made.
     */
    public String lockEventsChannel() {
        return prefix + ":lock-events";
    }
}
