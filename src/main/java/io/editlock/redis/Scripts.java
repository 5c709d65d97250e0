package io.editlock.redis;

import static io.editlock.redis.LuaLibrary.CATALOG;
import static io.editlock.redis.LuaLibrary.CLOCK;
import static io.editlock.redis.LuaLibrary.FULL_STORE;
import static io.editlock.redis.LuaLibrary.GUARDS;
import static io.editlock.redis.LuaLibrary.IDEMPOTENCY;
import static io.editlock.redis.LuaLibrary.LOCKS;
import static io.editlock.redis.LuaLibrary.TAKEOVER;
import static io.editlock.redis.LuaLibrary.WAITING;

import java.util.List;

/**
 * Every Lua script of the server, in one place: the typed wrappers ({@code LockScripts},
 * {@code CatalogScripts}, {@code WaitingScripts}, the rate limit, the resume store, the in-flight
 * marks of keyed creates) run these and no
 * others; readiness preloads {@link #ALL} ({@link ScriptExecutor#preload}); the one-slot test checks
 * that every one of them is called with keys of one hash slot. A new script goes here.
 */
public final class Scripts {

    // Locks (docs/protocol.md §2–§6). Whatever frees or grants a lock serves the waiting lines in the same run (§14).
    public static final LuaScript ACQUIRE_LOCK = LuaScript.of("acquire_lock", WAITING);
    public static final LuaScript RELEASE_LOCK = LuaScript.of("release_lock", WAITING);
    public static final LuaScript SWITCH_USER_CONFIGURATOR = LuaScript.of("switch_user_configurator");
    public static final LuaScript PUT_BACK_USER_CONFIGURATOR = LuaScript.of("put_back_user_configurator");
    public static final LuaScript CANCEL_LOCK_REQUEST = LuaScript.of("cancel_lock_request", WAITING);
    public static final LuaScript RELEASE_SOCKET_LOCKS = LuaScript.of("release_socket_locks", WAITING, FULL_STORE);
    public static final LuaScript RENEW_SOCKET_LOCKS = LuaScript.of("renew_socket_locks", LOCKS, FULL_STORE);
    public static final LuaScript MOVE_SOCKET_LOCKS = LuaScript.of("move_socket_locks", WAITING, FULL_STORE);
    public static final LuaScript REAP_EXPIRED_LOCKS = LuaScript.of("reap_expired_locks", WAITING, FULL_STORE);
    public static final LuaScript LIST_LOCKS = LuaScript.of("list_locks", LOCKS);
    public static final LuaScript SCHEDULE_EXPIRY = LuaScript.of("schedule_expiry", CLOCK);
    public static final LuaScript RESCHEDULE_EXPIRY = LuaScript.of("reschedule_expiry");

    // Waiting lines and take-overs (§13, §14).
    public static final LuaScript WAIT_FOR = LuaScript.of("wait_for", WAITING);
    public static final LuaScript STOP_WAITING = LuaScript.of("stop_waiting", WAITING, FULL_STORE);
    public static final LuaScript REQUEST_TAKEOVER = LuaScript.of("request_takeover", WAITING);
    public static final LuaScript ANSWER_TAKEOVER = LuaScript.of("answer_takeover", TAKEOVER);
    public static final LuaScript RESOLVE_TAKEOVER = LuaScript.of("resolve_takeover", TAKEOVER);
    public static final LuaScript RESERVE_WAITING_LINE = LuaScript.of("reserve_waiting_line", CLOCK);
    public static final LuaScript WITHDRAW_WAITING_REQUEST = LuaScript.of("withdraw_waiting_request", WAITING);
    public static final LuaScript READ_TAKEOVERS = LuaScript.of("read_takeovers", LOCKS);

    // The catalog's guarded writes and its snapshot (§7, §8).
    public static final LuaScript CREATE_CONFIGURATOR =
            LuaScript.of("create_configurator", CLOCK, CATALOG, IDEMPOTENCY);
    public static final LuaScript RENAME_CONFIGURATOR = LuaScript.of("rename_configurator", GUARDS, CATALOG);
    public static final LuaScript DELETE_CONFIGURATOR = LuaScript.of("delete_configurator", GUARDS, WAITING, CATALOG);
    public static final LuaScript ADD_ITEM = LuaScript.of("add_item", GUARDS, CATALOG, IDEMPOTENCY);
    public static final LuaScript RENAME_ITEM = LuaScript.of("rename_item", GUARDS, CATALOG);
    public static final LuaScript DELETE_ITEM = LuaScript.of("delete_item", GUARDS, WAITING, CATALOG);
    public static final LuaScript ADD_ENTRY = LuaScript.of("add_entry", GUARDS, CATALOG, IDEMPOTENCY);
    public static final LuaScript UPDATE_ENTRY = LuaScript.of("update_entry", GUARDS, CATALOG);
    public static final LuaScript DELETE_ENTRY = LuaScript.of("delete_entry", GUARDS, CATALOG);
    public static final LuaScript READ_CONFIGURATOR = LuaScript.of("read_configurator");
    public static final LuaScript MARK_IN_FLIGHT = LuaScript.of("mark_in_flight", CLOCK);
    public static final LuaScript CLEAR_IN_FLIGHT = LuaScript.of("clear_in_flight");

    // Sessions and limits.
    public static final LuaScript RESERVE_LOCK_REQUESTS = LuaScript.of("reserve_lock_requests");
    public static final LuaScript RECORD_LIVE = LuaScript.of("record_live");
    public static final LuaScript CLAIM_RESUME = LuaScript.of("claim_resume", FULL_STORE);
    public static final LuaScript GIVE_BACK_RESUME = LuaScript.of("give_back_resume");
    public static final LuaScript MARK_DROPPED = LuaScript.of("mark_dropped", FULL_STORE);
    public static final LuaScript LIST_RESUMED_SOCKET = LuaScript.of("list_resumed_socket", FULL_STORE);

    /** Every script above. */
    public static final List<LuaScript> ALL = List.of(
            ACQUIRE_LOCK,
            RELEASE_LOCK,
            CANCEL_LOCK_REQUEST,
            SWITCH_USER_CONFIGURATOR,
            PUT_BACK_USER_CONFIGURATOR,
            RELEASE_SOCKET_LOCKS,
            RENEW_SOCKET_LOCKS,
            MOVE_SOCKET_LOCKS,
            REAP_EXPIRED_LOCKS,
            LIST_LOCKS,
            SCHEDULE_EXPIRY,
            RESCHEDULE_EXPIRY,
            WAIT_FOR,
            STOP_WAITING,
            REQUEST_TAKEOVER,
            ANSWER_TAKEOVER,
            RESOLVE_TAKEOVER,
            RESERVE_WAITING_LINE,
            WITHDRAW_WAITING_REQUEST,
            READ_TAKEOVERS,
            CREATE_CONFIGURATOR,
            RENAME_CONFIGURATOR,
            DELETE_CONFIGURATOR,
            ADD_ITEM,
            RENAME_ITEM,
            DELETE_ITEM,
            ADD_ENTRY,
            UPDATE_ENTRY,
            DELETE_ENTRY,
            READ_CONFIGURATOR,
            MARK_IN_FLIGHT,
            CLEAR_IN_FLIGHT,
            RESERVE_LOCK_REQUESTS,
            RECORD_LIVE,
            CLAIM_RESUME,
            GIVE_BACK_RESUME,
            MARK_DROPPED,
            LIST_RESUMED_SOCKET);

    private Scripts() {}
}
