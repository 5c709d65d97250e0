package io.editlock.waiting;

import io.editlock.lock.ReleasedLock;
import java.util.List;

/** What resolve_takeover answered (read by {@link WaitingReplies#resolveTakeover}). */
public sealed interface ResolveReply {

    /** No such request any more (answered, or the lock went). */
    record Gone() implements ResolveReply {}

    /** The store's clock has not reached the deadline yet. */
    record NotDue(long deadline) implements ResolveReply {}

    /** Due, and nothing done yet: the nodes of the asker's sockets, whose heartbeats decide who is gone. */
    record Due(List<String> nodes) implements ResolveReply {}

    /** The asker's sockets all went with their nodes: the request ended, nothing was handed over. */
    record Ended(String holder, List<ReleasedLock> released) implements ResolveReply {}

    /** No answer in time counts as yes: handed over. @param holder who was asked */
    record Resolved(String holder, List<ReleasedLock> released) implements ResolveReply {}
}
