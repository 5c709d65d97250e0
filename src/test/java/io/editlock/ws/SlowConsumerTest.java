package io.editlock.ws;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.RawWsClient;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: a socket whose unsent frames exceed 1 MiB is closed with 1008 ("too slow"), a drop
 * (§5: its locks wait out the grace period), instead of being buffered without bound; the other
 * watchers of the busy configurator keep getting their frames on time.
 */
@QuarkusTest
class SlowConsumerTest {

    private static final String[] PAGES = {"filters", "dependencies", "attributes"};
    /** Editors who keep many pages locked, so that every lock-updated of the configurator is large (about 40 KB). */
    private static final int HOLDERS = 4;

    private static final int ITEMS_PER_HOLDER = 15;

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    SessionRegistry registry;

    @Inject
    LockService locks;

    @Test
    void aClientThatDoesNotReadIsClosedWhileTheOthersKeepUp() throws Exception {
        long busy = Fixtures.configurator(store);
        long own = Fixtures.configurator(store);
        List<WsClient> holders = new ArrayList<>();
        ExecutorService churn = Executors.newFixedThreadPool(HOLDERS);
        AtomicBoolean churning = new AtomicBoolean(true);
        var slowUser = DemoLogin.user("Slow");
        try (WsClient watcher = WsClient.connect(base, DemoLogin.user("Watcher").token());
                RawWsClient slow = RawWsClient.connectWithoutReading(base, slowUser.token())) {
            for (int h = 0; h < HOLDERS; h++) {
                WsClient holder =
                        WsClient.connect(base, DemoLogin.user("Holder" + h).token());
                holders.add(holder);
                holder.welcome();
                for (int i = 0; i < ITEMS_PER_HOLDER; i++) {
                    long item = Fixtures.item(store, busy);
                    for (String page : PAGES) {
                        lockPatiently(holder, Map.of("itemId", item, "page", page));
                    }
                }
            }
            watcher.welcome();
            assertEquals(
                    "lock-updated",
                    watcher.request("watch", Map.of("configuratorId", busy))
                            .path("event")
                            .asText());
            slow.sendText("{\"event\":\"lock-variables\",\"data\":{\"configuratorId\":" + own + "},\"ref\":\"own\"}");
            slow.sendText("{\"event\":\"watch\",\"data\":{\"configuratorId\":" + busy + "},\"ref\":\"watch\"}");
            SocketSession slowSocket = await().atMost(Duration.ofSeconds(10))
                    .until(
                            () -> registry.socketsOf(slowUser.id()).stream()
                                    .findFirst()
                                    .filter(session -> session.watched().contains(busy)),
                            Optional::isPresent)
                    .get();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !locks.locks(own).await().indefinitely().isEmpty());
            watcher.clear();
            holders.forEach(WsClient::clear);
            long heapBefore = usedHeapAfterGc();

            List<Future<?>> running = new ArrayList<>();
            for (WsClient holder : holders) {
                long item = Fixtures.item(store, busy);
                running.add(churn.submit(() -> {
                    while (churning.get()) {
                        holder.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
                        holder.request("unlock-item-subresource", Map.of("itemId", item, "page", "filters"));
                        holder.clear();
                    }
                    return null;
                }));
            }

            await().atMost(Duration.ofSeconds(60)).until(() -> {
                watcher.clear(); // the test's own clients keep what they receive: not the node's memory
                return registry.find(slowSocket.socketId()).isEmpty();
            });
            assertTrue(slowSocket.closedByServer(), "the server must have closed the socket that did not read");

            // Other watchers kept up: a change made now reaches the watcher within two seconds.
            churning.set(false);
            for (Future<?> task : running) {
                task.get();
            }
            WsClient marker = holders.get(0);
            long markerItem = Fixtures.item(store, busy);
            watcher.clear();
            long changed = System.nanoTime();
            lockPatiently(marker, Map.of("itemId", markerItem, "page", "filters"));
            watcher.awaitEvent(
                    frame -> "lock-updated".equals(frame.path("event").asText())
                            && frame.path("data").path("locks").toString().contains("\"itemId\":" + markerItem),
                    Duration.ofSeconds(2));
            assertTrue(
                    Duration.ofNanos(System.nanoTime() - changed).toMillis() < 2000,
                    "the watcher must keep getting frames on time");

            // A drop: the slow socket's own lock waits out the grace period instead of going at once.
            List<Lock> kept = locks.locks(own).await().indefinitely();
            assertEquals(
                    1, kept.size(), "a socket closed for being too slow keeps its locks for the grace period: " + kept);

            watcher.clear();
            holders.forEach(WsClient::clear);
            long heapAfter = usedHeapAfterGc();
            assertTrue(
                    heapAfter - heapBefore < 64L * 1024 * 1024,
                    "the node's heap must stay flat: it grew by " + (heapAfter - heapBefore) / 1024 / 1024 + " MiB");

            // What finally reaches the client ends with the close frame 1008, if the server got it out.
            slow.startReading();
        } finally {
            churning.set(false);
            churn.shutdownNow();
            holders.forEach(WsClient::close);
        }
    }

    private static void lockPatiently(WsClient holder, Map<String, ?> page) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    JsonNode reply = holder.request("lock-item-subresource", page);
                    return "lock-acquired".equals(reply.path("event").asText());
                });
    }

    private static long usedHeapAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
