package io.editlock.redis;

import java.util.List;

/**
 * The Lua libraries under {@code src/main/resources/lua/}, one per concern, each with the libraries
 * it needs. A script names only what it uses; {@link LuaScript} puts those and what they need in
 * front of it, each once, needed ones first.
 */
public enum LuaLibrary {
    /** {@code now_ms}: Redis's clock, asked once per decision. */
    CLOCK("clock_lib"),
    /** Lock records, their bookkeeping, conflicts and the widest-blocker rule, announcing changes. */
    LOCKS("locks_lib", CLOCK),
    /** Guards of REST writes, on top of the lock records. */
    GUARDS("guards_lib", LOCKS),
    /** The catalog writes' announcement, id lists and reply. */
    CATALOG("catalog_lib"),
    /** Idempotency-Key records of the create scripts. */
    IDEMPOTENCY("idempotency_lib"),
    /** Waiting lines and the serving of freed locks. */
    WAITING("waitlines_lib", LOCKS),
    /** The hand-over of a take-over. */
    TAKEOVER("takeover_lib", WAITING),
    /** What a script that keeps or ends what is held does first, so that it runs also when Redis is full. */
    FULL_STORE("full_store_lib");

    private final String file;
    private final List<LuaLibrary> needs;

    LuaLibrary(String file, LuaLibrary... needs) {
        this.file = file;
        this.needs = List.of(needs);
    }

    /** File name under {@code lua/} without {@code .lua}. */
    public String file() {
        return file;
    }

    List<LuaLibrary> needs() {
        return needs;
    }
}
