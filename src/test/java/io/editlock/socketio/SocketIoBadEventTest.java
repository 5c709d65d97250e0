package io.editlock.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LockKeys;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §4 and §12 over Socket.IO: an event that is not a valid request is acknowledged
 * with {@code error BAD_REQUEST} and a message, the session goes on, and the store is as it was. Every
 * row names a real configurator ({@code $C}), so that a server that acted on the event anyway would
 * change its locks.
 */
@QuarkusTest
class SocketIoBadEventTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EVENT = "42/locking,7";
    private static final String ACK = "43/locking,7";

    @Inject
    ConfiguratorStore store;

    @Inject
    RedisDataSource redis;

    @Inject
    LockKeys keys;

    static Stream<Arguments> badEvents() {
        return Stream.of(
                Arguments.of("arguments not an array", "{\"event\":\"lock-configurator\",\"configuratorId\":$C}"),
                Arguments.of("no arguments", "[]"),
                Arguments.of("event name a number", "[7,{\"configuratorId\":$C}]"),
                Arguments.of("event name null", "[null,{\"configuratorId\":$C}]"),
                Arguments.of("not JSON", "[\"lock-configurator\",{\"configuratorId\":$C}"),
                Arguments.of("anything after the arguments", "[\"lock-configurator\",{\"configuratorId\":$C}] x"),
                Arguments.of(
                        "a second argument", "[\"lock-configurator\",{\"configuratorId\":$C},{\"configuratorId\":$C}]"),
                Arguments.of(
                        "configuratorId twice", "[\"lock-configurator\",{\"configuratorId\":0,\"configuratorId\":$C}]"),
                Arguments.of(
                        "configuratorId of 1001 digits",
                        "[\"lock-configurator\",{\"configuratorId\":" + "9".repeat(1001) + "}]"),
                Arguments.of(
                        "data nested 1001 deep", "[\"lock-configurator\"," + "[".repeat(1001) + "]".repeat(1001) + "]"),
                Arguments.of("unknown event", "[\"lock-everything\",{\"configuratorId\":$C}]"),
                Arguments.of("no data", "[\"lock-configurator\"]"),
                Arguments.of("data an array", "[\"lock-configurator\",[$C]]"),
                Arguments.of("configuratorId a string", "[\"lock-configurator\",{\"configuratorId\":\"$C\"}]"),
                Arguments.of("configuratorId negative", "[\"lock-configurator\",{\"configuratorId\":-$C}]"),
                Arguments.of(
                        "unknown page",
                        "[\"lock-item-subresource\",{\"configuratorId\":$C,\"itemId\":1,\"page\":\"colours\"}]"),
                Arguments.of("wait-for without resource", "[\"wait-for\",{}]"),
                Arguments.of("request-takeover without resource", "[\"request-takeover\",{\"message\":\"please\"}]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badEvents")
    void aBadEventIsAcknowledgedAsABadRequestAndChangesNothing(String name, String arguments) throws Exception {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        EngineIoClient client = EngineIoClient.connected(sara);
        Map<String, Object> before = storeState(c, sara.id(), client);

        client.post(EVENT + arguments.replace("$C", String.valueOf(c)));

        String ack = client.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith(ACK))).stream()
                .filter(packet -> packet.startsWith(ACK))
                .findFirst()
                .orElseThrow();
        JsonNode reply = JSON.readTree(ack.substring(ACK.length())).path(0);
        assertEquals("error", reply.path("event").asText(), name + ": " + ack);
        assertEquals("BAD_REQUEST", reply.path("data").path("code").asText(), name + ": " + ack);
        assertFalse(reply.path("data").path("message").asText().isBlank(), name + " says what is wrong: " + ack);

        client.post("42/locking,8[\"touch\",{}]");
        assertTrue(
                client.pollUntil(received -> received.stream().anyMatch(packet -> packet.startsWith("43/locking,8")))
                        .contains("43/locking,8[{\"event\":\"touched\",\"data\":{}}]"),
                name + ": the session goes on after a bad event");
        assertEquals(before, storeState(c, sara.id(), client), name + ": a bad event must not touch the store");
    }

    /** The configurator's locks, and every key that names the user, the socket or its resume token. */
    private Map<String, Object> storeState(long configurator, String userId, EngineIoClient client) {
        Map<String, String> locks = new TreeMap<>(redis.hash(String.class).hgetall(keys.locks(configurator)));
        TreeSet<String> related = new TreeSet<>();
        for (String pattern :
                List.of("*" + userId + "*", "*" + client.socketId + "*", "*" + client.resumeToken + "*")) {
            related.addAll(new ArrayList<>(redis.key().keys(pattern)));
        }
        return Map.of("locks", locks, "keys", related);
    }
}
