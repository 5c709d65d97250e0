package io.editlock.waiting;

import io.editlock.lock.Lock;
import java.util.List;

/**
 * The take-overs of one configurator as they stand now (read_takeovers, read by {@link
 * WaitingReplies#readTakeovers}).
 *
 * @param found whether the configurator exists
 * @param pending every request that stands
 * @param asked one per take-over asked about, in the order asked
 */
public record TakeoverFacts(boolean found, List<PendingTakeover> pending, List<Asked> asked) {

    /**
     * What stands now of the take-over {@code askerId} asked for on {@code field}.
     *
     * @param exists whether the page exists (only when not pending)
     * @param lock the lock of the field now, with its token; null when free (or pending)
     * @param blocking the widest lock of another user that refuses the field to the asker now; null when none
     */
    public record Asked(String field, String askerId, boolean pending, boolean exists, Lock lock, Lock blocking) {}
}
