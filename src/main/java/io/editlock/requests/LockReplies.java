package io.editlock.requests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.editlock.protocol.ServerEvents;
import io.editlock.protocol.WireFormat;

/**
 * Lock and unlock results as direct replies: the one place where refusals become
 * {@code lock-failed} / {@code unlock-failed} codes.
 */
public final class LockReplies {

    public static final String LOCKED = "LOCKED";
    public static final String NOT_FOUND = "NOT_FOUND";
    public static final String RATE_LIMITED = "RATE_LIMITED";
    public static final String UNAVAILABLE = "UNAVAILABLE";
    public static final String NOT_HELD = "NOT_HELD";

    private LockReplies() {
    }

    public static String of(AcquireResult result, String ref) {
        if (result instanceof AcquireResult.Granted granted) {
            ObjectNode data = WireFormat.object();
            data.set("lock", WireFormat.lock(granted.lock(), true));
            data.set("released", WireFormat.resources(granted.released()));
            return WireFormat.frame(ServerEvents.LOCK_ACQUIRED, data, ref);
        }
        if (result instanceof AcquireResult.Refused refused) {
            String name = refused.blocking().ownerUserName();
            ObjectNode data = failure(refused.requested(), LOCKED, "Currently edited by " + name);
            data.put("lockedBy", name);
            data.put("lockedByUserId", refused.blocking().ownerUserId());
            data.set("blocking", WireFormat.lock(refused.blocking(), false));
            return WireFormat.frame(ServerEvents.LOCK_FAILED, data, ref);
        }
        AcquireResult.NotFound notFound = (AcquireResult.NotFound) result;
        return WireFormat.frame(ServerEvents.LOCK_FAILED,
                failure(notFound.requested(), NOT_FOUND, notFoundMessage(notFound.requested())), ref);
    }

    public static String rateLimited(Resource requested, int perSecond, String ref) {
        return WireFormat.frame(ServerEvents.LOCK_FAILED, failure(requested, RATE_LIMITED,
                "Too many lock requests: at most " + perSecond + " a second"), ref);
    }

    public static String unavailable(Resource requested, String ref) {
        return WireFormat.frame(ServerEvents.LOCK_FAILED, failure(requested, UNAVAILABLE,
                "The lock store cannot be reached; nothing was granted. Try again shortly."), ref);
    }

    public static String of(ReleaseResult result, String ref) {
        if (result instanceof ReleaseResult.Released released) {
            return WireFormat.frame(ServerEvents.LOCK_RELEASED, WireFormat.released(released.released()), ref);
        }
        Resource resource = ((ReleaseResult.NotHeld) result).resource();
        return WireFormat.frame(ServerEvents.UNLOCK_FAILED, failure(resource, NOT_HELD, "You do not hold " + resource.canonical()), ref);
    }

    /** Unlock while the store is unreachable: nothing changed (the lease still ends by itself). */
    public static String unlockUnavailable(Resource requested, String ref) {
        return WireFormat.frame(ServerEvents.UNLOCK_FAILED, failure(requested, UNAVAILABLE,
                "The lock store cannot be reached; the lock was not released."), ref);
    }

    private static ObjectNode failure(Resource resource, String code, String message) {
        ObjectNode data = WireFormat.object();
        data.set("resource", WireFormat.resource(resource));
        data.put("code", code);
        data.put("message", message);
        return data;
    }

    private static String notFoundMessage(Resource resource) {
        return resource.itemId() != null ? "No item " + resource.itemId() : "No configurator " + resource.configuratorId();
    }
}
