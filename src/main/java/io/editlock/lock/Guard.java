package io.editlock.lock;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.OptionalLong;

/**
 * A resolved guard of one REST write: the guard type, where it applies (configurator, and item and
 * page where it matters), who writes, and the {@code Lock-Token} they sent. A write script runs it
 * before its write, in the same run (see {@code lua/guards_lib.lua}).
 */
public record Guard(
        GuardType type, long configuratorId, Long itemId, Page page, String userId, OptionalLong lockToken) {

    /** For internal writes (fixtures): checks nothing. */
    public static Guard none(long configuratorId) {
        return new Guard(GuardType.NONE, configuratorId, null, null, "", OptionalLong.empty());
    }

    /**
     * The guard as the scripts read it: {kind, item, page, u, token, runBy}.
     *
     * @param runByMillis the last moment (epoch ms, Redis's clock) the write may still run; a write that
     *     runs later writes nothing, for its writer was already told 503 (docs/protocol.md §8)
     */
    public String toScriptJson(long runByMillis) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("kind", type.wireName());
        if (itemId != null) {
            node.put("item", String.valueOf(itemId));
        }
        if (page != null) {
            node.put("page", page.wireName());
        }
        node.put("u", userId);
        node.put("token", lockToken.isPresent() ? String.valueOf(lockToken.getAsLong()) : "");
        node.put("runBy", runByMillis);
        return node.toString();
    }
}
