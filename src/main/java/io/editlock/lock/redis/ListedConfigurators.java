package io.editlock.lock.redis;

import io.smallrye.mutiny.Uni;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What this node knows of one socket's index: the configurators it listed the socket under, the
 * socket's requests there that are still running, and the configurators it is taking off. A renewal
 * that found nothing of the socket in a configurator may take it off only when no request of the
 * socket there ran at any time since just before the renewal looked: such a request may leave a lock
 * the renewal did not see, even one that was under way already and has ended since. And a request that comes while the configurator is being taken off lists it
 * again only after: the two writes never cross.
 */
final class ListedConfigurators {

    private static final class Entry {
        boolean written;
        int running;
        long touched;
    }

    private final Map<Long, Entry> entries = new HashMap<>();
    private final Map<Long, CompletableFuture<Void>> removals = new HashMap<>();
    private long requests;

    /** What a request that begins in a configurator has to write first. */
    record Begun(boolean write, Uni<Void> removal) {}

    /** A request of the socket begins in the configurator; {@link #end} when it has ended, however. */
    synchronized Begun begin(long configuratorId) {
        Entry entry = entries.computeIfAbsent(configuratorId, id -> new Entry());
        entry.running++;
        entry.touched = ++requests;
        CompletableFuture<Void> removal = removals.get(configuratorId);
        return new Begun(!entry.written, removal == null ? null : awaiting(removal));
    }

    synchronized void end(long configuratorId) {
        Entry entry = entries.get(configuratorId);
        if (entry != null) {
            entry.running--;
            // A request that ran when a renewal marked may have reached the store after the renewal looked.
            entry.touched = ++requests;
        }
    }

    /** The store lists the socket under the configurator. */
    synchronized void written(long configuratorId) {
        Entry entry = entries.get(configuratorId);
        if (entry != null) {
            entry.written = true;
        }
    }

    /** Where the requests of the socket stand now: taken before a renewal looks at a configurator. */
    synchronized long mark() {
        return requests;
    }

    /**
     * Takes the configurator off, when no request of the socket there began, ended or ran since
     * {@code mark}, and runs {@code removal}: a request that comes meanwhile waits for it until it has
     * ended in the store (also when the renewal stopped waiting for it). A removal already under way is
     * the one answered: two never run side by side.
     *
     * @return the removal's end, or null when the configurator stays
     */
    Uni<Void> takeOff(long configuratorId, long mark, Supplier<Uni<Void>> removal) {
        CompletableFuture<Void> done;
        synchronized (this) {
            Entry entry = entries.get(configuratorId);
            if (entry != null && (entry.running > 0 || entry.touched > mark)) {
                return null;
            }
            CompletableFuture<Void> pending = removals.get(configuratorId);
            if (pending != null) {
                return awaiting(pending);
            }
            entries.remove(configuratorId);
            done = new CompletableFuture<>();
            removals.put(configuratorId, done);
        }
        done.whenComplete((ok, failure) -> removed(configuratorId, done));
        Uni.createFrom()
                .deferred(removal::get)
                .subscribe()
                .with(ok -> done.complete(null), done::completeExceptionally);
        return awaiting(done);
    }

    /** Each waiter's own view of a removal: one that stops waiting does not cancel it for the others. */
    private static Uni<Void> awaiting(CompletableFuture<Void> removal) {
        return Uni.createFrom().completionStage(removal::copy);
    }

    private synchronized void removed(long configuratorId, CompletableFuture<Void> removal) {
        removals.remove(configuratorId, removal);
    }

    /** The configurators the store lists the socket under, as far as this node wrote them. */
    synchronized Set<Long> written() {
        return entries.entrySet().stream()
                .filter(e -> e.getValue().written)
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    /** Every configurator this node listed the socket under, or is listing it under. */
    synchronized Set<Long> all() {
        return Set.copyOf(entries.keySet());
    }
}
