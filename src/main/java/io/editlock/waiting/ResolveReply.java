package io.editlock.waiting;

import io.editlock.lock.ReleasedLock;
import java.util.List;

/** What resolve_takeover answered (read by {@link WaitingReplies#resolveTakeover}). */
public sealed interface ResolveReply {

    /** No such request any more (answered, or the lock went). */
    record Gone() implements ResolveReply {}

    /** The store's clock has not reached the deadline yet. */
    record NotDue(long deadline) implements ResolveReply {}

    /** No answer in time counts as yes: handed over. @param holder who was asked */
    record Resolved(String holder, List<ReleasedLock> released) implements ResolveReply {}
}
