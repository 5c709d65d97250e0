package io.editlock.session;

import static io.editlock.support.LockFrames.event;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.BusyUser;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.RawWsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4, §12: {@code welcome} is the first frame of every socket (on Socket.IO, the
 * first event after the connect reply), also of one that opens while events for its user are being
 * sent: those come after it, never before. An event slips in only while a socket opens, which takes
 * microseconds; so sockets of a user whose events never stop open one after another, on
 * {@code /locking} and on Socket.IO at the same time, for seconds. On a server that let such events
 * through first, about one socket in a hundred or two got one before its welcome.
 */
@QuarkusTest
@TestProfile(BusyUser.Unlimited.class)
class WelcomeFirstTest {

    private static final Duration STORM = Duration.ofSeconds(10);
    private static final int MAX_SOCKETS = 5_000;
    private static final String CONNECTED = "40/locking,{\"sid\":";
    private static final String WELCOME = "42/locking,[\"welcome\"";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Test
    void everySocketOpenedWhileItsUserIsBusyGetsWelcomeFirst() {
        TestUser sara = DemoLogin.user("Sara");
        Storm locking;
        Storm socketIo;
        int switched;
        try (BusyUser busy =
                new BusyUser(base, sara.token(), Fixtures.configurator(store), Fixtures.configurator(store))) {
            int before = busy.switches();
            long end = System.nanoTime() + STORM.toNanos();
            locking = Storm.start(end, () -> firstFrame(sara));
            socketIo = Storm.start(end, () -> firstPackets(sara));
            locking.done.join();
            socketIo.done.join();
            switched = busy.switches() - before;
        }
        assertTrue(switched >= 100, "the user's events must go on while the sockets open; lock requests: " + switched);
        assertAll(
                () -> assertEquals(
                        List.of(),
                        locking.notWelcomedFirst,
                        "every /locking socket's first frame must be welcome, whatever is sent to its user meanwhile;"
                                + " of " + locking.opened + " sockets, these were not"),
                () -> assertEquals(
                        List.of(),
                        socketIo.notWelcomedFirst,
                        "every Socket.IO socket must get the connect reply and then welcome before any event, whatever"
                                + " is sent to its user meanwhile; of " + socketIo.opened + " sockets, these did not"));
    }

    /** Sockets of one transport opened one after another until the end: one at a time leaves the server time for events. */
    private record Storm(AtomicInteger opened, List<String> notWelcomedFirst, CompletableFuture<Void> done) {

        static Storm start(long endNanos, Supplier<Optional<String>> open) {
            AtomicInteger opened = new AtomicInteger();
            List<String> notWelcomedFirst = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> done = new CompletableFuture<>();
            Thread opener = new Thread(() -> {
                try {
                    while (System.nanoTime() < endNanos && opened.get() < MAX_SOCKETS) {
                        open.get().ifPresent(notWelcomedFirst::add);
                        opened.incrementAndGet();
                    }
                    done.complete(null);
                } catch (RuntimeException | Error e) {
                    done.completeExceptionally(e);
                }
            });
            opener.setDaemon(true);
            opener.start();
            return new Storm(opened, notWelcomedFirst, done);
        }
    }

    /** @return what came first on a new {@code /locking} socket of the user, if that was not welcome */
    private Optional<String> firstFrame(TestUser user) {
        try (RawWsClient socket = RawWsClient.connect(base, user.token())) {
            await().atMost(Duration.ofSeconds(10))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> !socket.received().isEmpty());
            JsonNode first = socket.received().get(0);
            return "welcome".equals(event(first)) ? Optional.empty() : Optional.of(first.toString());
        }
    }

    /**
     * @return what a new Socket.IO socket of the user (on Engine.IO's WebSocket transport) got up to its
     *     welcome, unless that was the connect reply and welcome
     */
    private Optional<String> firstPackets(TestUser user) {
        List<String> packets = new CopyOnWriteArrayList<>();
        URI uri = URI.create(base.toString().replaceFirst("^http", "ws").replaceAll("/+$", "")
                + "/socket.io/?EIO=4&transport=websocket");
        WebSocket socket = HTTP.newWebSocketBuilder()
                .buildAsync(uri, new Packets(packets))
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
        try {
            socket.sendText("40/locking,{\"token\":\"" + user.token() + "\"}", true)
                    .orTimeout(10, TimeUnit.SECONDS)
                    .join();
            await().atMost(Duration.ofSeconds(10))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> packets.stream().anyMatch(packet -> packet.startsWith(WELCOME)));
        } finally {
            socket.abort();
        }
        // The engine's open packet and its pings are Engine.IO's own; the namespace's packets start with 4.
        List<String> first = packets.stream()
                .filter(packet -> packet.startsWith("4"))
                .limit(2)
                .toList();
        boolean inOrder = first.get(0).startsWith(CONNECTED) && first.get(1).startsWith(WELCOME);
        return inOrder ? Optional.empty() : Optional.of(first.toString());
    }

    /** Keeps every text message, whole. */
    private record Packets(List<String> received, StringBuilder partial) implements WebSocket.Listener {

        Packets(List<String> received) {
            this(received, new StringBuilder());
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                received.add(partial.toString());
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }
}
