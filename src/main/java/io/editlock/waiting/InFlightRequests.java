package io.editlock.waiting;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Requests of this node's users whose script has not answered yet, by page and user, and whether what
 * they asked for ended meanwhile: the end travels apart from the script's reply and may be heard first,
 * and what it ended must not be recorded after it. One user may ask for the same page from several
 * tabs at once, so each key counts its requests in flight, and an end heard while any of them is in
 * flight holds for all of them.
 */
final class InFlightRequests {

    private final Map<String, InFlight> requests = new ConcurrentHashMap<>();

    private record InFlight(int count, boolean ended) {
        /** One request fewer: null, which drops the key, after the last. */
        InFlight answered() {
            return count == 1 ? null : new InFlight(count - 1, ended);
        }
    }

    void started(String key) {
        requests.merge(
                key, new InFlight(1, false), (current, another) -> new InFlight(current.count() + 1, current.ended()));
    }

    /** A request that came to nothing to record (refused, failed). */
    void dropped(String key) {
        requests.computeIfPresent(key, (ignored, current) -> current.answered());
    }

    /** What the key's requests asked for ended; nothing when none is in flight. */
    void ended(String key) {
        requests.computeIfPresent(key, (ignored, current) -> new InFlight(current.count(), true));
    }

    /** @return whether what the request asked for ended while it was in flight (then it is not to be recorded) */
    boolean answeredAfterItsEnd(String key) {
        boolean[] ended = new boolean[1];
        requests.computeIfPresent(key, (ignored, current) -> {
            ended[0] = current.ended();
            return current.answered();
        });
        return ended[0];
    }
}
