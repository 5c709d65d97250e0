package io.editlock.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.auth.Identity;
import io.editlock.support.RecordingConnection;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The rooms broadcasts go to (docs/protocol.md §4), under real concurrency: sockets on different
 * event loops watch and leave one configurator at the same moment, and no socket that watches it may
 * ever be missing from its room.
 */
class SessionRegistryRoomsTest {

    private static final long CONFIGURATOR = 7;

    @Test
    void aSocketThatWatchesIsInTheRoomWhileTheLastOtherWatcherLeavesIt() throws Exception {
        SessionRegistry registry = new SessionRegistry(new ShownLocks());
        SocketSession comesAndGoes = session("comes-and-goes");
        SocketSession joining = session("joining");
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService loops = Executors.newFixedThreadPool(2);
        try {
            // One event loop: a socket that is the room's only other watcher, watching and leaving without pause.
            Future<?> churn = loops.submit(() -> {
                while (!done.get()) {
                    registry.watch(comesAndGoes, CONFIGURATOR);
                    registry.unwatch(comesAndGoes, CONFIGURATOR);
                }
            });
            // The other: a socket that watches, must be in the room at once, and leaves again.
            Future<Integer> missed = loops.submit(() -> {
                int misses = 0;
                for (int round = 0; round < 2_000_000 && misses == 0; round++) {
                    registry.watch(joining, CONFIGURATOR);
                    if (!registry.watchers(CONFIGURATOR).contains(joining)) {
                        misses++;
                    }
                    registry.unwatch(joining, CONFIGURATOR);
                }
                return misses;
            });
            int misses = missed.get(60, TimeUnit.SECONDS);
            done.set(true);
            churn.get(10, TimeUnit.SECONDS);
            assertEquals(0, misses, "a watching socket was missing from its room, so it would get no broadcasts");
        } finally {
            done.set(true);
            loops.shutdownNow();
        }
    }

    /**
     * A grant handed over by an event (a line, a take-over) joins the socket to the room from the relay's
     * event loop, while the socket's own loop may be removing it: a socket that ended must never stay in
     * a room, where every later broadcast would walk over it and it would never be freed.
     */
    @Test
    void aSocketRemovedWhileItJoinsARoomIsNotLeftInIt() throws Exception {
        SessionRegistry registry = new SessionRegistry(new ShownLocks());
        ExecutorService loops = Executors.newFixedThreadPool(2);
        try {
            int left = 0;
            for (int round = 0; round < 20_000 && left == 0; round++) {
                SocketSession ending = session("ending-" + round);
                registry.add(ending);
                CyclicBarrier together = new CyclicBarrier(2);
                Future<?> closing = loops.submit(() -> {
                    together.await();
                    registry.remove(ending);
                    return null;
                });
                Future<?> joining = loops.submit(() -> {
                    together.await();
                    registry.watch(ending, CONFIGURATOR);
                    return null;
                });
                closing.get(10, TimeUnit.SECONDS);
                joining.get(10, TimeUnit.SECONDS);
                if (registry.watchers(CONFIGURATOR).contains(ending)) {
                    left++;
                }
            }
            assertEquals(0, left, "a socket that ended was left in a room");
        } finally {
            loops.shutdownNow();
        }
    }

    private static SocketSession session(String id) {
        return new SocketSession(
                new RecordingConnection(id), new Identity("u-" + id, id, Set.of()), "node", "resume-" + id);
    }
}
