package io.editlock.protocol;

import io.editlock.lock.Resource;

/**
 * The {@code message} texts a person reads, written once for every transport. Clients act on the
 * codes ({@link ErrorCode}); these only explain them.
 */
public final class Messages {

    /** The start of every message about a store that does not answer. */
    public static final String STORE_UNREACHABLE = "The lock store cannot be reached";

    public static final String NOTHING_GRANTED = STORE_UNREACHABLE + "; nothing was granted. Try again shortly.";
    public static final String NOT_RELEASED = STORE_UNREACHABLE + "; the lock may not be released: try again.";
    public static final String NOTHING_WRITTEN = STORE_UNREACHABLE + "; nothing was written. Try again shortly.";
    public static final String RESUME_FAILED =
            "This resumeToken cannot be resumed (unknown, expired, used, another user's, or its socket is still open)";
    public static final String REAUTH_REFUSED =
            "This token cannot renew the socket (invalid, expired, or another user's); the socket keeps its token";
    public static final String NO_TAKEOVER_TO_ANSWER =
            "No take-over request for this resource is waiting for your answer";
    public static final String TAKEOVER_BUSY = "Somebody else already asked for this lock";
    public static final String BINARY_FRAME = "frames must be JSON text messages, not binary";
    public static final String INTERNAL = "The request could not be processed";

    private Messages() {}

    /** Why a lock was refused ({@code LOCKED}): the holder's name. */
    public static String currentlyEditedBy(String userName) {
        return "Currently edited by " + userName;
    }

    public static String notFound(Resource resource) {
        return resource.itemId() != null ? "No item " + resource.itemId() : noConfigurator(resource.configuratorId());
    }

    public static String noConfigurator(long configuratorId) {
        return "No configurator " + configuratorId;
    }

    public static String notHeld(Resource resource) {
        return "You do not hold " + resource.canonical();
    }

    public static String takeoverNotNeeded(Resource resource) {
        return "Nobody else holds " + resource.canonical() + ": you can lock it";
    }

    public static String lockRateExceeded(int perSecond) {
        return "Too many lock requests: at most " + perSecond + " a second";
    }

    public static String frameRateExceeded(int perSecond) {
        return "More than " + perSecond + " requests a second on this socket; this one was not processed";
    }

    public static String watchLimit(int perSocket) {
        return "This socket already watches " + perSocket + " configurators, the most allowed; unwatch one first";
    }

    public static String lockLimitReached(int locks) {
        return "You hold " + locks + " locks in this configurator already, the most allowed; release one first";
    }

    public static String waitLimit(int lines) {
        return "You wait in " + lines + " lines already";
    }
}
