package io.editlock.requests;

import io.editlock.protocol.ErrorCode;
import io.editlock.protocol.Messages;
import io.editlock.protocol.ServerEvents;
import io.editlock.protocol.WireFormat;

/**
 * The refusals a socket gets as an {@code error} event (docs/protocol.md §4 "Codes"), whatever the
 * transport. {@link #frame} is the one place where they become codes and messages; refusals of a
 * lock or unlock are {@link LockReplies}' part.
 */
public sealed interface SocketError {

    /** A frame that does not decode; {@code message} says what is wrong with it. */
    record BadRequest(String message) implements SocketError {}

    record FrameRateExceeded(int perSecond) implements SocketError {}

    record WatchLimitReached(int perSocket) implements SocketError {}

    record WaitLimitReached(int lines) implements SocketError {}

    record NoConfigurator(long configuratorId) implements SocketError {}

    record NoTakeoverToAnswer() implements SocketError {}

    record ResumeFailed() implements SocketError {}

    record ReauthRefused() implements SocketError {}

    /** The store did not answer a request that is not a lock or unlock. */
    record StoreUnreachable() implements SocketError {}

    /** An unexpected failure; logged where it happened. */
    record Internal() implements SocketError {}

    /** The {@code error} frame; {@code ref} null when the request had none (or an invalid one). */
    static String frame(SocketError error, String ref) {
        return WireFormat.frame(ServerEvents.ERROR, WireFormat.error(code(error).wire(), message(error)), ref);
    }

    private static ErrorCode code(SocketError error) {
        if (error instanceof BadRequest) {
            return ErrorCode.BAD_REQUEST;
        }
        if (error instanceof FrameRateExceeded) {
            return ErrorCode.RATE_LIMITED;
        }
        if (error instanceof WatchLimitReached || error instanceof WaitLimitReached) {
            return ErrorCode.LIMIT_EXCEEDED;
        }
        if (error instanceof NoConfigurator || error instanceof NoTakeoverToAnswer) {
            return ErrorCode.NOT_FOUND;
        }
        if (error instanceof ResumeFailed) {
            return ErrorCode.RESUME_FAILED;
        }
        if (error instanceof ReauthRefused) {
            return ErrorCode.UNAUTHORIZED;
        }
        return error instanceof StoreUnreachable ? ErrorCode.UNAVAILABLE : ErrorCode.INTERNAL;
    }

    private static String message(SocketError error) {
        if (error instanceof BadRequest bad) {
            return bad.message();
        }
        if (error instanceof FrameRateExceeded rate) {
            return Messages.frameRateExceeded(rate.perSecond());
        }
        if (error instanceof WatchLimitReached watches) {
            return Messages.watchLimit(watches.perSocket());
        }
        if (error instanceof WaitLimitReached lines) {
            return Messages.waitLimit(lines.lines());
        }
        if (error instanceof NoConfigurator missing) {
            return Messages.noConfigurator(missing.configuratorId());
        }
        if (error instanceof NoTakeoverToAnswer) {
            return Messages.NO_TAKEOVER_TO_ANSWER;
        }
        if (error instanceof ResumeFailed) {
            return Messages.RESUME_FAILED;
        }
        if (error instanceof ReauthRefused) {
            return Messages.REAUTH_REFUSED;
        }
        return error instanceof StoreUnreachable ? Messages.STORE_UNREACHABLE : Messages.INTERNAL;
    }
}
