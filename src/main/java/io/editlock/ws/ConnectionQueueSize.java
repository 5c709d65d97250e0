package io.editlock.ws;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Sizes Mutiny's small buffers for a node that holds thousands of idle sockets. websockets-next gives
 * every connection a queue for the messages waiting behind the one in hand, and allocates its first
 * chunk at Mutiny's small buffer size (256 slots, about 1 KiB) when the socket opens: the largest
 * single object an idle socket holds (docs/benchmarks.md, memory). A socket sends one frame at a
 * time and waits for the reply, so its queue rarely holds more than a few; the queue is unbounded and
 * grows by further chunks when it must. Mutiny's operators that take their batch size from the same
 * setting (the list reads' {@code merge}) request in smaller batches; none of them bounds what it
 * accepts by it.
 */
@ApplicationScoped
public class ConnectionQueueSize {

    /** The smallest size Mutiny accepts for it; a few frames at most wait on a socket. */
    static final int CHUNK = 16;

    // Before the first socket opens: a connection takes the size when it is made.
    void apply(@Observes @Priority(1) StartupEvent started) {
        Infrastructure.setBufferSizeS(CHUNK);
    }
}
