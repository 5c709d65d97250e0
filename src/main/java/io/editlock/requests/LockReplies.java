package io.editlock.requests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.lock.AcquireResult;
import io.editlock.lock.ReleaseResult;
import io.editlock.lock.Resource;
import io.editlock.protocol.ErrorCode;
import io.editlock.protocol.Messages;
import io.editlock.protocol.ServerEvents;
import io.editlock.protocol.WireFormat;

/**
 * Lock and unlock results as direct replies: the one place where refusals become
 * {@code lock-failed} / {@code unlock-failed} codes.
 */
public final class LockReplies {

    private LockReplies() {}

    public static String of(LockOutcome outcome, Resource requested, String ref) {
        if (outcome instanceof LockOutcome.Decided decided) {
            return of(decided.result(), ref);
        }
        if (outcome instanceof LockOutcome.RateLimited limited) {
            return failed(requested, ErrorCode.RATE_LIMITED, Messages.lockRateExceeded(limited.perSecond()), ref);
        }
        Resource resolved = ((LockOutcome.Unavailable) outcome).resolved();
        return unavailable(resolved == null ? requested : resolved, ref);
    }

    public static String of(AcquireResult result, String ref) {
        if (result instanceof AcquireResult.Granted granted) {
            ObjectNode data = WireFormat.object();
            data.set("lock", WireFormat.lock(granted.lock(), true));
            data.set("released", WireFormat.resources(granted.released()));
            return WireFormat.frame(ServerEvents.LOCK_ACQUIRED, data, ref);
        }
        if (result instanceof AcquireResult.Refused refused) {
            return WireFormat.frame(
                    ServerEvents.LOCK_FAILED, WireFormat.lockedBy(refused.requested(), refused.blocking()), ref);
        }
        if (result instanceof AcquireResult.LimitReached limit) {
            return failed(limit.requested(), ErrorCode.LIMIT_EXCEEDED, Messages.lockLimitReached(limit.limit()), ref);
        }
        Resource missing = ((AcquireResult.NotFound) result).requested();
        return failed(missing, ErrorCode.NOT_FOUND, Messages.notFound(missing), ref);
    }

    public static String unavailable(Resource requested, String ref) {
        return failed(requested, ErrorCode.UNAVAILABLE, Messages.NOTHING_GRANTED, ref);
    }

    /** A {@code lock-failed} of a code that carries no holder. */
    public static String failed(Resource requested, ErrorCode code, String message, String ref) {
        return WireFormat.frame(ServerEvents.LOCK_FAILED, WireFormat.refusal(requested, code, message), ref);
    }

    public static String of(ReleaseResult result, String ref) {
        if (result instanceof ReleaseResult.Released released) {
            return WireFormat.frame(ServerEvents.LOCK_RELEASED, WireFormat.released(released.released()), ref);
        }
        Resource resource = ((ReleaseResult.NotHeld) result).resource();
        return WireFormat.frame(
                ServerEvents.UNLOCK_FAILED,
                WireFormat.refusal(resource, ErrorCode.NOT_HELD, Messages.notHeld(resource)),
                ref);
    }

    /** Unlock while the store is unreachable: nothing changed (the lease still ends by itself). */
    public static String unlockUnavailable(Resource requested, String ref) {
        return WireFormat.frame(
                ServerEvents.UNLOCK_FAILED,
                WireFormat.refusal(requested, ErrorCode.UNAVAILABLE, Messages.NOT_RELEASED),
                ref);
    }
}
