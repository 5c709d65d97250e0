package io.editlock.waiting;

import io.editlock.lock.Lock;

/** What request_takeover answered (read by {@link WaitingReplies#requestTakeover}). */
public sealed interface TakeoverReply {

    /**
     * @param deadline when the consent window ends (epoch ms, the store's clock)
     * @param created  this run asked; else the same user's earlier request is still pending
     * @param holder   whom this run asked (only when created)
     */
    record Pending(long deadline, boolean created, String holder) implements TakeoverReply {}

    /** Nobody else holds it: nothing to take over. */
    record NotHeld() implements TakeoverReply {}

    /** Another lock blocks it, held by someone else than the one asked. */
    record Locked(Lock blocking) implements TakeoverReply {}

    /** Somebody else already asked for this lock. */
    record Busy() implements TakeoverReply {}

    /** No such configurator or item. */
    record NotFound() implements TakeoverReply {}
}
