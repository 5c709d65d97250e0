package io.editlock.catalog;

import io.smallrye.mutiny.Uni;

/**
 * What one kind of delete leaves to do after its script, done in the background so that the delete's
 * own cost does not grow with what it took away. Each delete is noted before its script runs
 * ({@link DeleteNotes}): the node that deleted cleans up at once and takes its note away, also when the
 * script refused; every node sweeps, now and then, the notes that nobody took away once their delete
 * can no longer be running (its node died on the way, or Redis failed). Each kind schedules its own
 * sweep: Quarkus schedules no {@code @Scheduled} method that a bean inherits.
 */
abstract class DeleteCleanup {

    private final DeleteNotes notes;

    DeleteCleanup(DeleteNotes notes) {
        this.notes = notes;
    }

    /** Before a delete runs: from now on, what it leaves is found even if this node dies. */
    Uni<DeleteNotes.Asked> asked(long configuratorId) {
        return notes.asked(configuratorId);
    }

    /** The delete's script ran and answered other than OK (refused, or given up): it left nothing to do. */
    Uni<Void> refused(DeleteNotes.Asked asked) {
        return notes.refused(asked);
    }

    /** Notes of deletes the last sweep found overdue and could not settle (see {@link CleanupMetrics}). */
    int unsettled() {
        return notes.unsettled();
    }

    /** After a delete ran: cleans up in the background; what fails is left to the sweep. */
    void cleanUpSoon(DeleteNotes.Asked asked) {
        notes.cleanUpSoon(asked, cleanUp(asked));
    }

    /** The scheduled sweep: one at a time, its failures logged. */
    Uni<Void> sweepNow() {
        return notes.sweepNow(sweep());
    }

    /**
     * Settles the notes nobody took away whose delete can no longer be running.
     *
     * @return how many notes it looked at (settled or not: see {@link #unsettled})
     */
    public Uni<Integer> sweep() {
        return notes.sweep(this::settle);
    }

    /** Cleans up after the delete, then takes its note away. @return how many ids it took out of the indexes */
    abstract Uni<Long> cleanUp(DeleteNotes.Asked asked);

    /** A note the sweep found overdue: cleans up after its delete if it ran, else forgets the note. */
    abstract Uni<Void> settle(DeleteNotes.Asked asked);

    /** Takes the delete's note away. */
    Uni<Void> forget(DeleteNotes.Asked asked) {
        return notes.forget(asked);
    }
}
