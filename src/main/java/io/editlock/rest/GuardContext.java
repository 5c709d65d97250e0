package io.editlock.rest;

import io.editlock.catalog.Entity;
import io.editlock.catalog.UnknownIdException;
import io.editlock.lock.Guard;
import jakarta.enterprise.context.RequestScoped;

/**
 * The guard {@link LockGuardFilter} resolved for the current request, for its handler. An unknown
 * id is kept, not thrown, so that the handler validates its body first (400 before 404, §11).
 */
@RequestScoped
public class GuardContext {

    private Guarded guarded;
    private UnknownIdException unknown;

    /** A guard and the id of the path parameter it was resolved from. */
    public record Guarded(Guard guard, long id) {}

    void resolved(Guard guard, long id) {
        this.guarded = new Guarded(guard, id);
    }

    void unknown(Entity entity, String id) {
        this.unknown = UnknownIdException.of(entity, id);
    }

    /** The 404 of an id that names nothing; null when the id was found. */
    UnknownIdException unknown() {
        return unknown;
    }

    /** The guard of this request; a 404 when its id names nothing. */
    public Guarded require() {
        if (guarded != null) {
            return guarded;
        }
        if (unknown != null) {
            throw unknown;
        }
        throw new IllegalStateException("a guarded write without @RequireLock: no guard was resolved");
    }
}
