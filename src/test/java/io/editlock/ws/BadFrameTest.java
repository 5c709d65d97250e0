package io.editlock.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.protocol.ServerEvents;
import io.editlock.redis.LockKeys;
import io.editlock.support.DemoLogin;
import io.editlock.support.Fixtures;
import io.editlock.support.RawWsClient;
import io.editlock.support.RedisIndependentSecondPass;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §4: a frame that is not a valid request is answered with {@code error BAD_REQUEST}
 * (carrying the ref only when the ref itself was valid), never closes the socket and never touches
 * the store. A frame over the maximum (16 KiB) closes the socket with 1009.
 *
 * <p>Every row names a real configurator ({@code $C}) and item ({@code $I}) where it names one, so
 * that a server that acted on the frame anyway would change their locks.
 */
@QuarkusTest
@RedisIndependentSecondPass
class BadFrameTest {

    private static final String REF = "bad-1";
    private static final int MAX_FRAME = 16 * 1024;

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    RedisDataSource redis;

    @Inject
    LockKeys keys;

    static Stream<Arguments> badFrames() {
        String ref65 = "x".repeat(65);
        return Stream.of(
                row("not JSON", "hello", null),
                row("truncated JSON", "{\"event\":\"touch\",\"ref\":\"bad-1\"", null),
                row("empty frame", "", null),
                row("JSON array", "[{\"event\":\"touch\",\"ref\":\"bad-1\"}]", null),
                // What a client's own reading of its JSON may see otherwise: one value, each field once.
                row(
                        "a second frame after the frame",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":$C},\"ref\":\"bad-1\"} {}",
                        null),
                row(
                        "a field twice",
                        "{\"event\":\"touch\",\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":$C}}",
                        null),
                row(
                        "configuratorId twice",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":$C,\"configuratorId\":$C},"
                                + "\"ref\":\"bad-1\"}",
                        null),
                // Beyond what the server reads: still answered with the ref.
                row(
                        "configuratorId of 1001 digits",
                        "{\"event\":\"lock-configurator\",\"ref\":\"bad-1\",\"data\":{\"configuratorId\":"
                                + "9".repeat(1001) + "}}",
                        REF),
                row(
                        "data nested 1001 deep",
                        "{\"event\":\"lock-configurator\",\"ref\":\"bad-1\",\"data\":" + "[".repeat(1001)
                                + "]".repeat(1001) + "}",
                        REF),
                row("JSON string", "\"touch\"", null),
                row("JSON number", "42", null),
                row("JSON null", "null", null),
                row("missing event", "{\"data\":{\"configuratorId\":$C},\"ref\":\"bad-1\"}", REF),
                row("event null", "{\"event\":null,\"data\":{\"configuratorId\":$C},\"ref\":\"bad-1\"}", REF),
                row("event not a string", "{\"event\":7,\"data\":{\"configuratorId\":$C},\"ref\":\"bad-1\"}", REF),
                row(
                        "event an object",
                        "{\"event\":{\"name\":\"lock-configurator\"},\"data\":{\"configuratorId\":$C},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "unknown event",
                        "{\"event\":\"lock-everything\",\"data\":{\"configuratorId\":$C},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "wrong-case event",
                        "{\"event\":\"Lock-Configurator\",\"data\":{\"configuratorId\":$C},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "event with a space",
                        "{\"event\":\"lock-configurator \",\"data\":{\"configuratorId\":$C},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "wrong-case field name",
                        "{\"Event\":\"lock-configurator\",\"data\":{\"configuratorId\":$C},\"ref\":\"bad-1\"}",
                        REF),
                row("missing data", "{\"event\":\"lock-configurator\",\"ref\":\"bad-1\"}", REF),
                row("data null", "{\"event\":\"lock-configurator\",\"data\":null,\"ref\":\"bad-1\"}", REF),
                row("data an array", "{\"event\":\"lock-configurator\",\"data\":[$C],\"ref\":\"bad-1\"}", REF),
                row("data a string", "{\"event\":\"lock-configurator\",\"data\":\"$C\",\"ref\":\"bad-1\"}", REF),
                row("missing configuratorId", "{\"event\":\"lock-configurator\",\"data\":{},\"ref\":\"bad-1\"}", REF),
                row(
                        "wrong-case configuratorId",
                        "{\"event\":\"lock-configurator\",\"data\":{\"ConfiguratorId\":$C},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "configuratorId null",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":null},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "configuratorId a string",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":\"$C\"},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "configuratorId a boolean",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":true},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "configuratorId negative",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":-$C},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "configuratorId zero",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":0},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "configuratorId fractional",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":1.5},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "configuratorId 2^53",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":9007199254740992},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "configuratorId huge",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":123456789012345678901234567890},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "lock-variables without configuratorId",
                        "{\"event\":\"lock-variables\",\"data\":{\"itemId\":$I},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "unlock-configurator with a string id",
                        "{\"event\":\"unlock-configurator\",\"data\":{\"configuratorId\":\"$C\"},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "missing itemId",
                        "{\"event\":\"lock-item-subresource\",\"data\":{\"page\":\"filters\",\"configuratorId\":$C},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "itemId a string",
                        "{\"event\":\"lock-item-subresource\",\"data\":{\"itemId\":\"$I\",\"page\":\"filters\"},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "itemId negative",
                        "{\"event\":\"lock-item-subresource\",\"data\":{\"itemId\":-$I,\"page\":\"filters\"},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "missing page",
                        "{\"event\":\"lock-item-subresource\",\"data\":{\"itemId\":$I},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "page null",
                        "{\"event\":\"lock-item-subresource\",\"data\":{\"itemId\":$I,\"page\":null},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "unknown page",
                        "{\"event\":\"lock-item-subresource\",\"data\":{\"itemId\":$I,\"page\":\"notes\"},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "page wrong case",
                        "{\"event\":\"lock-item-subresource\",\"data\":{\"itemId\":$I,\"page\":\"Filters\"},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "page a number",
                        "{\"event\":\"lock-item-subresource\",\"data\":{\"itemId\":$I,\"page\":1},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "unlock with unknown page",
                        "{\"event\":\"unlock-item-subresource\",\"data\":{\"itemId\":$I,\"page\":\"variables\"},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "watch with a string id",
                        "{\"event\":\"watch\",\"data\":{\"configuratorId\":\"$C\"},\"ref\":\"bad-1\"}",
                        REF),
                row("watch without data", "{\"event\":\"watch\",\"ref\":\"bad-1\"}", REF),
                row("unwatch without configuratorId", "{\"event\":\"unwatch\",\"data\":{},\"ref\":\"bad-1\"}", REF),
                row("touch with data an array", "{\"event\":\"touch\",\"data\":[],\"ref\":\"bad-1\"}", REF),
                row("touch with data a string", "{\"event\":\"touch\",\"data\":\"now\",\"ref\":\"bad-1\"}", REF),
                row("resume without resumeToken", "{\"event\":\"resume\",\"data\":{},\"ref\":\"bad-1\"}", REF),
                row("resume without data", "{\"event\":\"resume\",\"ref\":\"bad-1\"}", REF),
                row(
                        "resumeToken a number",
                        "{\"event\":\"resume\",\"data\":{\"resumeToken\":12},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "resumeToken empty",
                        "{\"event\":\"resume\",\"data\":{\"resumeToken\":\"\"},\"ref\":\"bad-1\"}",
                        REF),
                row("reauth without accessToken", "{\"event\":\"reauth\",\"data\":{},\"ref\":\"bad-1\"}", REF),
                row("reauth without data", "{\"event\":\"reauth\",\"ref\":\"bad-1\"}", REF),
                row("reauth with data a string", "{\"event\":\"reauth\",\"data\":\"eyJ\",\"ref\":\"bad-1\"}", REF),
                row(
                        "accessToken null",
                        "{\"event\":\"reauth\",\"data\":{\"accessToken\":null},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "accessToken a number",
                        "{\"event\":\"reauth\",\"data\":{\"accessToken\":12},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "accessToken an object",
                        "{\"event\":\"reauth\",\"data\":{\"accessToken\":{\"jwt\":\"x\"}},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "accessToken empty",
                        "{\"event\":\"reauth\",\"data\":{\"accessToken\":\"\"},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "wrong-case accessToken",
                        "{\"event\":\"reauth\",\"data\":{\"AccessToken\":\"x.y.z\"},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "wrong-case reauth",
                        "{\"event\":\"Reauth\",\"data\":{\"accessToken\":\"x.y.z\"},\"ref\":\"bad-1\"}",
                        REF),
                row(
                        "ref a number (the lock itself is fine)",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":$C},\"ref\":7}",
                        null),
                row(
                        "ref of 65 characters (the lock itself is fine)",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":$C},\"ref\":\"" + ref65 + "\"}",
                        null),
                row(
                        "ref an object",
                        "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":$C},\"ref\":{\"id\":\"bad-1\"}}",
                        null),
                row("ref a boolean", "{\"event\":\"touch\",\"ref\":true}", null));
    }

    private static Arguments row(String name, String frame, String expectedRef) {
        return Arguments.of(name, frame, expectedRef);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFrames")
    void badFrameIsAnsweredWithBadRequest(String name, String template, String expectedRef) {
        long configurator = Fixtures.configurator(store);
        long item = Fixtures.item(store, configurator);
        String frame = template.replace("$C", String.valueOf(configurator)).replace("$I", String.valueOf(item));
        var user = DemoLogin.user("Sara");
        try (WsClient client = WsClient.connect(base, user.token())) {
            JsonNode welcome = client.welcome();
            StoreState before = storeState(configurator, user.id(), welcome);

            client.sendRaw(frame);
            JsonNode error = client.awaitEvent(ServerEvents.ERROR);

            assertEquals(
                    "BAD_REQUEST", error.path("data").path("code").asText(), name + ": wrong error code in " + error);
            assertFalse(
                    error.path("data").path("message").asText().isBlank(),
                    name + ": the error must say what is wrong: " + error);
            if (expectedRef == null) {
                assertFalse(error.has("ref"), name + ": the ref was not valid, so the error must carry none: " + error);
            } else {
                assertEquals(
                        expectedRef,
                        error.path("ref").asText(null),
                        name + ": the error must carry the valid ref: " + error);
            }
            JsonNode touched = client.request("touch", Map.of());
            assertEquals(
                    "touched",
                    touched.path("event").asText(),
                    name + ": the socket must stay usable after a bad frame");
            assertFalse(client.isClosed(), name + ": a bad frame must never close the socket");
            assertEquals(
                    1,
                    client.frames(f -> f.path("event").asText().equals(ServerEvents.ERROR))
                            .size(),
                    name + ": one bad frame, one error: " + client.received());
            assertEquals(
                    before,
                    storeState(configurator, user.id(), welcome),
                    name + ": a bad frame must not touch the store");
        }
    }

    @Test
    void binaryFrameIsABadRequestToo() {
        long configurator = Fixtures.configurator(store);
        var user = DemoLogin.user("Sara");
        try (WsClient client = WsClient.connect(base, user.token())) {
            JsonNode welcome = client.welcome();
            StoreState before = storeState(configurator, user.id(), welcome);
            String lock = "{\"event\":\"lock-configurator\",\"data\":{\"configuratorId\":" + configurator
                    + "},\"ref\":\"bin\"}";

            client.sendBinary(lock.getBytes(StandardCharsets.UTF_8));

            JsonNode error = client.awaitEvent(ServerEvents.ERROR);
            assertEquals(
                    "BAD_REQUEST",
                    error.path("data").path("code").asText(),
                    "a binary frame is not a JSON text message: " + error);
            assertEquals(
                    "touched", client.request("touch", Map.of()).path("event").asText(), "the socket must stay usable");
            assertEquals(
                    before, storeState(configurator, user.id(), welcome), "a binary frame must not touch the store");
        }
    }

    @Test
    void refOf64CharactersIsValid() {
        var user = DemoLogin.user("Sara");
        String ref64 = "y".repeat(64);
        try (WsClient client = WsClient.connect(base, user.token())) {
            client.welcome();
            client.send("touch", Map.of(), ref64);
            JsonNode reply = client.reply(ref64);
            assertEquals("touched", reply.path("event").asText(), "a ref of 64 characters is valid: " + reply);
        }
    }

    @Test
    void frameOfExactlyTheMaximumIsAccepted() {
        var user = DemoLogin.user("Sara");
        try (WsClient client = WsClient.connect(base, user.token())) {
            client.welcome();
            client.sendRaw(paddedTouch("max", MAX_FRAME));
            JsonNode reply = client.reply("max");
            assertEquals(
                    "touched", reply.path("event").asText(), "a frame of exactly 16 KiB is within the limit: " + reply);
        }
    }

    @Test
    void frameOverTheMaximumClosesTheSocketWith1009() {
        var user = DemoLogin.user("Sara");
        try (WsClient client = WsClient.connect(base, user.token())) {
            client.welcome();
            client.sendRaw(paddedTouch("big", MAX_FRAME + 1));
            assertEquals(1009, client.awaitClosedByServer(), "a frame over 16 KiB must close the socket with 1009");
            assertTrue(
                    client.repliesTo("big").isEmpty(), "an oversized frame must not be answered: " + client.received());
        }
    }

    @ParameterizedTest(name = "{0} bytes in frames of at most {1}")
    @CsvSource({
        "16385,  16385", // one frame, one byte over
        "16385,  4096", // small frames that add up to one byte over
        "102400, 102400", // one frame over Vert.x's own frame limit (64 KiB) too
    })
    void messageOverTheMaximumClosesTheSocketWith1009(int messageBytes, int frameBytes) {
        var user = DemoLogin.user("Sara");
        try (RawWsClient client = RawWsClient.connect(base, user.token())) {
            client.welcome();
            client.sendFragmented(paddedTouch("big", messageBytes), frameBytes);
            assertEquals(
                    1009,
                    client.awaitCloseFrame(Duration.ofSeconds(10)),
                    "a message of " + messageBytes + " bytes (over 16 KiB) must close the socket with 1009");
        }
    }

    /** A valid touch frame of exactly {@code bytes} bytes. */
    private static String paddedTouch(String ref, int bytes) {
        String empty = "{\"event\":\"touch\",\"ref\":\"" + ref + "\",\"data\":{\"pad\":\"\"}}";
        return empty.replace("\"pad\":\"\"", "\"pad\":\"" + "p".repeat(bytes - empty.length()) + "\"");
    }

    /** What a request of this user and socket could have written: locks, indexes, counters, resume record. */
    private StoreState storeState(long configurator, String userId, JsonNode welcome) {
        String socketId = welcome.path("data").path("socketId").asText();
        String resumeToken = welcome.path("data").path("resumeToken").asText();
        Map<String, String> locks = new TreeMap<>(redis.hash(String.class).hgetall(keys.locks(configurator)));
        TreeSet<String> related = new TreeSet<>();
        for (String pattern : List.of("*" + userId + "*", "*" + socketId + "*", "*" + resumeToken + "*")) {
            related.addAll(new ArrayList<>(redis.key().keys(pattern)));
        }
        return new StoreState(locks, related);
    }

    record StoreState(Map<String, String> locks, TreeSet<String> keys) {}
}
