package io.editlock.waiting;

import io.editlock.lock.Lock;

/** What request_takeover answered (read by {@link WaitingReplies#requestTakeover}). */
public sealed interface TakeoverReply {

    /**
     * @param deadline when the consent window ends (epoch ms, the store's clock)
     * @param created  this run asked; else the same user's earlier request is still pending
     * @param holder   the user asked (the holder of the lock when the request was made)
     */
    record Pending(long deadline, boolean created, String holder) implements TakeoverReply {}

    /** No other user's lock refuses it to the asker (nobody else holds it, nothing blocks it): they can lock it. */
    record NotHeld() implements TakeoverReply {}

    /**
     * Another user's lock would still refuse it to the asker: free itself but blocked by that lock (the
     * configurator lock, for an item page), or the holder's other lock would block it after the hand-over.
     * {@code blocking} is that lock, as a refused lock request names it: the one to ask for.
     */
    record Locked(Lock blocking) implements TakeoverReply {}

    /** Somebody else already asked for this lock. */
    record Busy() implements TakeoverReply {}

    /** No such configurator or item. */
    record NotFound() implements TakeoverReply {}

    /** This node had given the request up (and withdrawn it) before it ran: nothing was done. */
    record GivenUp() implements TakeoverReply {}
}
