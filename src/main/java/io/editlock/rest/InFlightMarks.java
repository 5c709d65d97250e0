package io.editlock.rest;

import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.redis.LockKeys;
import io.editlock.redis.ScriptExecutor;
import io.editlock.redis.Scripts;
import io.editlock.redis.StoreClock;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * The mark of a keyed create in progress (docs/protocol.md §8), by which a duplicate sent meanwhile is
 * answered 409. A mark is set only while its node still waits for the answer, so that a create
 * answered 503 leaves no mark behind for its retry to run into, and each request takes away only its
 * own mark.
 */
@ApplicationScoped
public class InFlightMarks {

    /** How long a mark blocks its duplicates when its node dies before taking it away. */
    static final Duration LIFETIME = Duration.ofSeconds(30);

    private final ScriptExecutor scripts;
    private final LockKeys keys;
    private final StoreClock clock;

    public InFlightMarks(ScriptExecutor scripts, LockKeys keys, StoreClock clock) {
        this.scripts = scripts;
        this.keys = keys;
        this.clock = clock;
    }

    /**
     * @param keyId the key's id (user and key)
     * @param mark  this request's own value
     * @return true when marked, false when another request holds the key's mark; failure
     *     {@link LockStoreUnavailableException} when the store could not be reached, or the mark came to
     *     Redis too late to be set
     */
    public Uni<Boolean> mark(String keyId, String mark) {
        return scripts.run(
                        Scripts.MARK_IN_FLIGHT,
                        List.of(keys.idempotencyInFlight(keyId)),
                        List.of(mark, String.valueOf(LIFETIME.toMillis()), String.valueOf(clock.lastMomentToRun())))
                .onFailure()
                .transform(LockStoreUnavailableException::of)
                .map(reply -> switch (reply.toInteger()) {
                    case 1 -> true;
                    case 0 -> false;
                    default -> throw new LockStoreUnavailableException("the store answered too late", null);
                });
    }

    /** Takes this request's mark away, if it holds it. */
    public Uni<Void> clear(String keyId, String mark) {
        return scripts.run(Scripts.CLEAR_IN_FLIGHT, List.of(keys.idempotencyInFlight(keyId)), List.of(mark))
                .onFailure()
                .transform(LockStoreUnavailableException::of)
                .replaceWithVoid();
    }
}
