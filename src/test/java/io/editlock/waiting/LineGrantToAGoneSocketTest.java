package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Holder;
import io.editlock.lock.Resource;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §2 and §14: a configurator granted from a line replaces the user's other
 * configurator. The grant is kept by every socket of the user that waits, and one of them may be on a
 * node that just died (its node still vouches for it until two leases have passed). Whichever socket
 * the grant names first, the node of a live one makes the switch.
 */
@QuarkusTest
class LineGrantToAGoneSocketTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    /** The gone socket comes first in the grant's keepers about every other time: a few rounds show it. */
    private static final int ROUNDS = 5;

    @TestHTTPResource("/")
    URI base;

    @Inject
    WaitingLines lines;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void aConfiguratorFromTheLineReplacesTheOtherOneAlsoWhenAGoneSocketOfTheUserWaitedToo() {
        for (int round = 0; round < ROUNDS; round++) {
            TestUser vera = DemoLogin.user("Vera");
            TestUser tomUser = DemoLogin.user("Tom");
            long held = Api.configurator(tomUser);
            long wanted = Api.configurator(vera);
            WsClient holder = sockets.connect(base, vera);
            WsClient tom = sockets.connect(base, tomUser);
            WsClient omar = sockets.connect(base, DemoLogin.user("Omar"));
            assertEquals("lock-acquired", event(tom.request("lock-configurator", Map.of("configuratorId", held))));
            assertEquals("lock-acquired", event(holder.request("lock-configurator", Map.of("configuratorId", wanted))));
            Map<String, Object> line = Map.of("resource", Map.of("type", "configurator", "configuratorId", wanted));
            // Tom waits from a socket of a node that is gone, and from his socket here.
            Holder gone = new Holder(tomUser.id(), "Tom", "gone-" + UUID.randomUUID(), "gone-node");
            assertInstanceOf(
                    WaitingLines.Queued.class,
                    lines.waitFor(Resource.configurator(wanted), gone).await().atMost(WAIT));
            assertEquals("queued", event(tom.request("wait-for", line)));

            assertEquals(
                    "lock-released", event(holder.request("unlock-configurator", Map.of("configuratorId", wanted))));

            JsonNode lost = tom.awaitEvent(
                    frame -> "lock-lost".equals(frame.path("event").asText())
                            && frame.path("data")
                                            .path("resource")
                                            .path("configuratorId")
                                            .asLong()
                                    == held,
                    WAIT);
            assertEquals("replaced", lost.path("data").path("reason").asText(), "round " + round + ": " + lost);
            assertEquals(
                    "lock-acquired",
                    event(omar.request("lock-configurator", Map.of("configuratorId", held))),
                    "round " + round + ": Tom's previous configurator is free for others");
            sockets.close();
        }
    }

    private static String event(JsonNode frame) {
        return frame.path("event").asText();
    }
}
