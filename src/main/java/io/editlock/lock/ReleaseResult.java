package io.editlock.lock;

/** What an unlock came to. */
public sealed interface ReleaseResult {

    record Released(ReleasedLock released) implements ReleaseResult {}

    /** The user holds no such lock (never held, already released, expired, or someone else's). */
    record NotHeld(Resource resource) implements ReleaseResult {}
}
