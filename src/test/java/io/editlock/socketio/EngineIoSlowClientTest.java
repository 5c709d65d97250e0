package io.editlock.socketio;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.Holder;
import io.editlock.lock.LockService;
import io.editlock.lock.Resource;
import io.editlock.session.SessionRegistry;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The limit on what waits for a client (docs/protocol.md §4) holds over Socket.IO too: a long-polling
 * client that stops polling while broadcasts pile up is dropped, instead of being buffered without end.
 */
@QuarkusTest
@TestProfile(EngineIoUnreadSessionsTest.ShortConnectTimeout.class) // its small limit of what may wait
class EngineIoSlowClientTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    ConfiguratorStore store;

    @Inject
    LockService locks;

    @Inject
    SessionRegistry registry;

    @Test
    void aClientThatStopsPollingIsDroppedOnceTooMuchWaitsForIt() {
        long configuratorId = Fixtures.configurator(store);
        EngineIoClient sara = EngineIoClient.connected("Sara");
        sara.post("42/locking,1[\"watch\",{\"configuratorId\":" + configuratorId + "}]");
        sara.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43/locking,1")));
        assertTrue(registry.find(sara.socketId).isPresent(), "Sara's socket is open");

        // Sara polls no more; every lock and unlock of Omar's is a broadcast to her room.
        Holder omar = Fixtures.user("Omar");
        Resource configurator = Resource.configurator(configuratorId);
        for (int i = 0; i < 40 && registry.find(sara.socketId).isPresent(); i++) {
            locks.acquire(configurator, omar).await().atMost(WAIT);
            locks.release(configurator, omar.userId(), omar.socketId()).await().atMost(WAIT);
        }
        await().atMost(Duration.ofSeconds(20))
                .until(() -> registry.find(sara.socketId).isEmpty());

        // What she did not read is not kept for her: her next poll gets the close packet alone.
        assertEquals(List.of("1"), sara.poll());
    }
}
