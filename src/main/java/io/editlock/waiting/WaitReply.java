package io.editlock.waiting;

/** What wait_for answered (read by {@link WaitingReplies#waitFor}). */
public sealed interface WaitReply {

    /** Nobody holds a conflicting lock: the user may lock it right away. */
    record Free() implements WaitReply {}

    /** @param member the user's place in the line (see lua/waitlines_lib.lua) */
    record Queued(long position, String member) implements WaitReply {}

    /** No such configurator or item. */
    record NotFound() implements WaitReply {}

    /** The user would have to join the line, and waits in as many lines as allowed already. */
    record Full() implements WaitReply {}

    /** This node had given the request up (and withdrawn it) before it ran: nothing was done. */
    record GivenUp() implements WaitReply {}
}
