package io.editlock.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * docs/socketio.md, the upgrade: while a probe is open and has not upgraded, the client's polls are
 * answered with a noop, but no more often than every 100 ms, since the client polls again at once;
 * a probe that has not upgraded by the upgrade timeout is closed, and the session goes on polling.
 * This is what a proxy that lets the WebSocket open but holds back its frames does to a client.
 */
@QuarkusTest
@TestProfile(EngineIoUnreadSessionsTest.ShortConnectTimeout.class) // its upgrade timeout: 4 s
class EngineIoUpgradeTimeoutTest {

    private static final int POLLS = 10;

    @TestHTTPResource("/socket.io/")
    URI engine;

    @Test
    void aProbeThatNeverUpgradesIsPacedAndThenClosed() throws Exception {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        CompletableFuture<String> probed = new CompletableFuture<>();
        CompletableFuture<Integer> probeClosed = new CompletableFuture<>();
        WebSocket probe = HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .buildAsync(
                        URI.create(engine.toString().replaceFirst("^http", "ws") + "?EIO=4&transport=websocket&sid="
                                + sara.sid),
                        new WebSocket.Listener() {
                            @Override
                            public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
                                probed.complete(data.toString());
                                socket.request(1);
                                return null;
                            }

                            @Override
                            public CompletionStage<?> onClose(WebSocket socket, int code, String reason) {
                                probeClosed.complete(code);
                                return null;
                            }
                        })
                .get(10, TimeUnit.SECONDS);
        probe.sendText("2probe", true);
        assertEquals("3probe", probed.get(10, TimeUnit.SECONDS));

        long start = System.nanoTime();
        for (int i = 0; i < POLLS; i++) {
            List<String> packets = sara.poll();
            assertTrue(
                    packets.stream().allMatch(packet -> packet.equals("6") || packet.equals("2")), packets.toString());
            if (packets.contains("2")) {
                sara.post("3");
            }
        }
        // A lower bound only: a slow machine makes it longer, never shorter.
        Duration polled = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(
                polled.compareTo(Duration.ofMillis(100L * (POLLS - 1))) >= 0,
                POLLS + " polls during the upgrade were answered within " + polled.toMillis() + " ms");

        probeClosed.get(15, TimeUnit.SECONDS);
        sara.post("42/locking,1[\"touch\",{}]");
        assertEquals(
                List.of("43/locking,1[{\"event\":\"touched\",\"data\":{}}]"),
                sara.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43"))).stream()
                        .filter(packet -> !packet.equals("2"))
                        .toList(),
                "after the probe ended, the session goes on polling, and a poll waits for what there is to send");
    }
}
