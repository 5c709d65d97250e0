package io.editlock.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The count of sessions nobody connected on (docs/socketio.md) under handshakes that arrive on several
 * event loops at once: never a place beyond a bound, and every place given back once. Plain JUnit.
 */
class UnconnectedSessionsTest {

    private static final int THREADS = 8;
    private static final int ATTEMPTS = 2_000;

    @Test
    void handshakesAtOnceNeverGetMorePlacesThanTheBoundsAllow() throws Exception {
        UnconnectedSessions unconnected = new UnconnectedSessions(100, 30);
        List<String> addresses = List.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5");
        ConcurrentLinkedQueue<UnconnectedSessions.Place> places = new ConcurrentLinkedQueue<>();
        Map<String, AtomicInteger> admitted = new ConcurrentHashMap<>();

        atOnce(thread -> {
            for (int i = 0; i < ATTEMPTS; i++) {
                String address = addresses.get((thread + i) % addresses.size());
                try {
                    places.add(unconnected.admit(address));
                    admitted.computeIfAbsent(address, key -> new AtomicInteger())
                            .incrementAndGet();
                } catch (HandshakeRefusal.Refused refused) {
                    // beyond a bound
                }
            }
        });

        assertEquals(100, places.size(), "places given on the node");
        assertEquals(100, unconnected.count());
        admitted.forEach((address, count) -> assertTrue(count.get() <= 30, count + " places for " + address));
    }

    @Test
    void aPlaceIsGivenBackOnceWhateverEndsItAndHoweverMany() throws Exception {
        UnconnectedSessions unconnected = new UnconnectedSessions(10_000, 10_000);
        List<UnconnectedSessions.Place> places = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            places.add(unconnected.admit("10.0.0." + (i % 7)));
        }

        // A connect, a disconnect and the session's end may come on different threads, in any order.
        atOnce(thread -> places.forEach(place -> {
            switch (thread % 4) {
                case 0 -> place.connected();
                case 1 -> place.disconnected();
                case 2 -> place.ended();
                default -> place.connected();
            }
        }));
        places.forEach(UnconnectedSessions.Place::ended);
        places.forEach(UnconnectedSessions.Place::disconnected); // too late: the session is gone

        assertEquals(0, unconnected.count(), "every place given back, none twice");
        for (int i = 0; i < 10_000; i++) {
            unconnected.admit("10.0.0.1"); // the address's count went back to 0 too
        }
    }

    private interface Work {
        void run(int thread) throws Exception;
    }

    private static void atOnce(Work work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                start.await();
                work.run(thread);
                return null;
            }));
        }
        start.countDown();
        for (Future<?> future : done) {
            future.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
    }
}
