package io.editlock.lock;

import java.time.Instant;
import java.util.Map;

/**
 * One grant of an edit lock. It belongs to the user; {@code keepers} are the sockets (socketId ->
 * nodeId) that keep it alive. {@code token} is the fencing token of the grant (docs/protocol.md §7); it is
 * 0 in lock views that carry none (what watchers are told).
 */
public record Lock(
        Resource resource,
        String ownerUserId,
        String ownerUserName,
        Instant acquiredAt,
        Instant expiresAt,
        long token,
        Map<String, String> keepers) {}
