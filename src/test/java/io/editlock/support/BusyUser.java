package io.editlock.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A user whose events never stop: one socket switches between two configurators as fast as the
 * server answers, so every other socket of that user on the node gets a {@code lock-lost} (reason
 * {@code replaced}, docs/protocol.md §2) with every switch. Runs until closed; the tests that use it
 * run with {@link Unlimited}, as the default lock rate would leave long quiet gaps.
 */
public final class BusyUser implements AutoCloseable {

    /** Requests on their way at once: enough that the server never waits for the client. */
    private static final int IN_FLIGHT = 32;

    private final WsClient socket;
    private final Thread switcher;
    private final AtomicInteger switches = new AtomicInteger();
    private volatile boolean running = true;

    public BusyUser(URI base, String token, long first, long second) {
        socket = WsClient.connectAlone(base, token);
        socket.welcome();
        switcher = new Thread(() -> switchUntilClosed(first, second), "busy-user");
        switcher.setDaemon(true);
        switcher.start();
    }

    private void switchUntilClosed(long first, long second) {
        while (running) {
            String last = "";
            for (int i = 0; i < IN_FLIGHT; i++) {
                long configuratorId = switches.incrementAndGet() % 2 == 0 ? first : second;
                last = socket.send("lock-configurator", Map.of("configuratorId", configuratorId));
            }
            socket.reply(last);
            // Only the newest frames matter to the tests; the switcher's own would pile up.
            socket.clear();
        }
    }

    /** Lock requests sent so far: each one the server granted sent the user's other sockets a lock-lost. */
    public int switches() {
        return switches.get();
    }

    @Override
    public void close() {
        running = false;
        try {
            switcher.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        socket.close();
    }

    /** No lock rate and no socket limit in the way of a busy user and the many sockets it is watched from. */
    public static final class Unlimited implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "editlock.rate-limit.lock-requests-per-second", "1000000",
                    // Not the audit log's level: a logger's level outlives the app in this JVM, and the
                    // tests of the audit log that run later would then read nothing.
                    "editlock.limits.sockets-per-user", "1000");
        }
    }
}
