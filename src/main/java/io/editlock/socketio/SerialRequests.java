package io.editlock.socketio;

import io.smallrye.mutiny.Uni;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The requests of one socket, run one at a time in the order they came, so that its replies keep
 * the order of its requests (as websockets-next does for {@code /locking}). A request answered at
 * once (a bad one, a touch) is followed in the same loop rather than from its callback, so that a
 * long burst does not nest. When the socket ends, what waits is dropped and the end runs after the
 * request in flight, as websockets-next runs {@code @OnClose} after the last {@code @OnTextMessage}.
 */
final class SerialRequests {

    private static final Logger LOG = Logger.getLogger(SerialRequests.class);
    private static final int RUNNING = 0;
    private static final int DONE_AT_ONCE = 1;
    private static final int WAITING = 2;

    private final int limit;
    private final Queue<Supplier<Uni<Void>>> requests = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile boolean ended;
    /** Run once, by whoever holds {@code busy} first after the end; it then keeps {@code busy} for good. */
    private final AtomicReference<Runnable> afterEnd = new AtomicReference<>();

    SerialRequests(int limit) {
        this.limit = limit;
    }

    /** @return false when {@code limit} requests are waiting already (the request is not queued) */
    boolean offer(Supplier<Uni<Void>> request) {
        if (ended) {
            return true; // nobody is left to answer
        }
        if (queued.incrementAndGet() > limit) {
            queued.decrementAndGet();
            return false;
        }
        requests.add(request);
        drain();
        return true;
    }

    /**
     * No request runs after this one in flight, if any; {@code then} runs when it has finished (at once
     * when none is), so that what the socket's last request did is undone with the socket, not after it.
     */
    void end(Runnable then) {
        if (afterEnd.compareAndSet(null, then)) {
            ended = true;
            drain();
        }
    }

    private void drain() {
        while (busy.compareAndSet(false, true)) {
            if (ended) {
                requests.clear();
                Runnable then = afterEnd.getAndSet(null);
                if (then != null) {
                    then.run();
                }
                return;
            }
            Supplier<Uni<Void>> next = requests.poll();
            if (next == null || ended) {
                busy.set(false);
                // ended is read after busy is released: an end() that found busy taken is seen here
                if (requests.isEmpty() && !ended) {
                    return;
                }
                continue;
            }
            queued.decrementAndGet();
            AtomicInteger state = new AtomicInteger(RUNNING);
            start(next).subscribe().with(ignored -> finished(state), failure -> finished(state));
            if (state.compareAndSet(RUNNING, WAITING)) {
                return; // finished() takes over when the reply comes
            }
            busy.set(false);
        }
    }

    private void finished(AtomicInteger state) {
        if (!state.compareAndSet(RUNNING, DONE_AT_ONCE)) {
            busy.set(false);
            drain();
        }
    }

    private static Uni<Void> start(Supplier<Uni<Void>> request) {
        try {
            return request.get();
        } catch (RuntimeException e) {
            LOG.error("unexpected failure of a Socket.IO request", e);
            return Uni.createFrom().voidItem();
        }
    }
}
